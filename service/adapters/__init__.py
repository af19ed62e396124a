"""What the service speaks to beyond itself: the game repository, wake-ups, outboxes and their senders."""

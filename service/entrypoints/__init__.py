"""Process entry points: the command line and `facedown serve`."""

"""``facedown check reliability``: the service under races, crashes, a database restart,
hostile input, abandoned and stalled clients, and a search for leaks, each measured in one
run against ``facedown serve`` itself (gunicorn and its workers in a child process), and
written to RELIABILITY.md. Imported by nothing that serves players."""

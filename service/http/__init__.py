"""HTTP: the app factory (the one wiring place), routes by resource, schemas, problem rendering, streaming."""

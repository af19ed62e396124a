"""The routes of the API, one blueprint per resource (``service.http.app`` registers them)."""

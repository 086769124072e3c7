"""HTTP and WebSocket routes, one module per area of the API."""

"""The service's model: pure (standard library and domain only), no Flask, no SQL."""

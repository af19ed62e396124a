"""``python -m service.tools.contract``: rewrite the generated schemas of openapi.yaml and the SDK's commands."""
from __future__ import annotations

from service.tools.contract import sdk_models, spec

if __name__ == "__main__":
    changed = [name for name, done in (("openapi.yaml", spec.write()), ("SDK commands", sdk_models.write())) if done]
    print("rewrote " + ", ".join(changed) if changed else "up to date")

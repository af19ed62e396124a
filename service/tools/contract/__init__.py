"""The public contract: the generated part of ``openapi.yaml`` (every command and event of
every ruleset as a schema), the checks a response must pass, and the conformance kit."""

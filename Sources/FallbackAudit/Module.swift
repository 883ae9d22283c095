// Module FallbackAudit.

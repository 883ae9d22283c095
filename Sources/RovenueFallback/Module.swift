// Module RovenueFallback.

// Module FallbackSample.

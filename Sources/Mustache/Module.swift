// Module Mustache.

// Module Markdown.

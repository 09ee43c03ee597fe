"""Text to trees: tokenising, the pipeline, documents, rendering, the bundled default model."""

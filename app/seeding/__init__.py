"""seed/ files: schema, load and validate (pure), apply in one transaction, export back."""

"""The guided flow, pure: questions, rules from the data, scoring and explanations."""

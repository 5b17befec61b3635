"""The editor forms: posted text into the write side's own input models, and what the form
templates draw (values, clashes with a newer version, field problems).
"""

"""Query-string models, one per view, shared by the HTML page, its JSON twin and OpenAPI, and
the lenient reader that drops a bad value and says which; readings.py reads a view's query
against the data's own values, the step a page and its JSON twin share.
"""

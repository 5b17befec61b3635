"""Query-string models, one module per view (matrix, benchmarks, compare, decide, changes, the
JSON lists), shared by the HTML page, its JSON twin and OpenAPI, and the lenient reader
(reader.py) that drops a bad value and says which. Pure: no database and no queries; reading a
view's query against the data's own values is app/queries/readings.py.
"""

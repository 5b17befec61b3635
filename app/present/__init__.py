"""Pure drawing and wording for pages: number and date formatting, chart geometry, the share
image, the Atom feed, unit conversion. No database, no HTTP.
"""

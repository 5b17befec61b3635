"""Pure arithmetic on measured figures: a service level read off a sweep, the spread of
repeated runs, changes across versions, unit conversion and the Pareto frontier. No database,
no HTTP, no wording: the read side (queries/) builds its read models with these, and present/
draws them, so neither needs the other."""

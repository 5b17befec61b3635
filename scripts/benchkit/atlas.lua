-- wrk script for scripts/bench.py: count status codes, walk a list of paths, and print the
-- results as one machine-readable line, so Python never parses wrk's human-readable report.
--
--   wrk ... -s atlas.lua URL                          the URL's path, over and over
--   wrk ... -s atlas.lua URL -- FILE cycle THREADS    the paths in FILE, round-robin, all run long
--   wrk ... -s atlas.lua URL -- FILE once THREADS     each path in FILE once, split between the
--                                                     threads; each thread prints ATLAS-THREAD-DONE
--                                                     when all its answers are in, then stops
--
-- At the end: ATLAS {"requests": ..., "statuses": {"200": ...}, "p99_us": ..., ...}

local threads = {}

function setup(thread)
   -- setup() runs in the main Lua state; the thread's own state learns its index from set().
   thread:set("index", #threads)
   table.insert(threads, thread)
end

local paths = nil
local mode = "repeat"
-- reserved: requests a connection may send (granted in delay()); sent, received: so far.
local reserved, sent, received = 0, 0, 0
-- wrk calls request() once before the run, to count pipelined requests, and never sends it.
local started = false
statuses = {}  -- global: done() reads it from each thread with thread:get()

local function count(status)
   statuses[status] = (statuses[status] or 0) + 1
end

local function load_paths(file, thread_count)
   local mine, n = {}, 0
   for line in io.lines(file) do
      if line ~= "" then
         -- "once": thread i takes paths i, i+T, i+2T... so no path is requested twice.
         if mode ~= "once" or n % thread_count == index then
            table.insert(mine, line)
         end
         n = n + 1
      end
   end
   return mine
end

local function next_request()
   if mode == "once" and not started then
      return wrk.format(nil, paths[1])  -- wrk's trial call: must not use up a path
   end
   -- (In "cycle" the trial call just shifts the walk by one path, which does no harm.)
   sent = sent + 1
   -- In "cycle" every thread starts at its own offset, so the threads do not move in step.
   local position = (sent - 1 + index) % #paths + 1
   return wrk.format(nil, paths[position])
end

local function counted_response(status)
   count(status)
   received = received + 1
   if mode == "once" and received == #paths then
      io.write("ATLAS-THREAD-DONE\n")
      io.flush()
      wrk.thread:stop()
   end
end

local function reserve_or_hold()
   -- Called before every request. Once this thread's share is handed out, a connection waits
   -- an hour instead: wrk has no "stop sending", and a repeat would hit a cache and flatter
   -- the p99. (Reserving here, not counting in request(), stops two connections that ask at
   -- once from both taking the last path.)
   started = true
   if reserved >= #paths then
      return 3600000
   end
   reserved = reserved + 1
   return 0
end

function init(args)
   -- wrk passes its own URL as args[0]; the script's arguments follow "--" from args[1].
   if args[1] == nil then
      response = count
      return
   end
   mode = args[2] or "cycle"
   paths = load_paths(args[1], tonumber(args[3] or "1"))
   request = next_request
   response = counted_response
   if mode == "once" then
      delay = reserve_or_hold
   end
end

local function merged_statuses()
   local merged = {}
   for _, thread in ipairs(threads) do
      for status, n in pairs(thread:get("statuses") or {}) do
         merged[status] = (merged[status] or 0) + n
      end
   end
   local parts = {}
   for status, n in pairs(merged) do
      table.insert(parts, string.format('"%d": %d', status, n))
   end
   return "{" .. table.concat(parts, ", ") .. "}"
end

function done(summary, latency, requests)
   local e = summary.errors
   local fields = {
      string.format('"requests": %d', summary.requests),
      string.format('"duration_us": %d', summary.duration),
      string.format('"connect": %d, "read": %d, "write": %d', e.connect, e.read, e.write),
      string.format('"timeout": %d, "status_errors": %d', e.timeout, e.status),
   }
   for _, p in ipairs({ 50, 90, 99 }) do
      table.insert(fields, string.format('"p%d_us": %d', p, math.floor(latency:percentile(p))))
   end
   table.insert(fields, string.format('"max_us": %d', math.floor(latency.max)))
   table.insert(fields, '"statuses": ' .. merged_statuses())
   io.write("ATLAS {" .. table.concat(fields, ", ") .. "}\n")
end

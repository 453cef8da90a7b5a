-- wrk script: every request POSTs one new call (an id unique per run, thread and request) to one
-- of 64 lists in rotation, and counts 201 answers: only acknowledged writes count (issue 7,
-- figure 4). usage: wrk ... -s post.lua URL -- RUNPREFIX [LIST]
-- (with LIST, every call goes to that one list instead: the badge's cost on a big list, issue 41)
-- prints "created=N other=M duration_us=D" at the end.
local threads = {}
local counter = 0
local prefix = "w"
local only = nil
created = 0
other = 0

function setup(thread)
   table.insert(threads, thread)
   thread:set("tid", #threads)
end

function init(args)
   prefix = args[1] or "w"
   only = args[2]
end

function request()
   counter = counter + 1
   local id = prefix .. "-" .. tid .. "-" .. counter
   local list = only or (prefix .. "-list" .. (counter % 64))
   local body = string.format(
      '{"id":"%s","peer":{"id":"p%d"},"direction":"incoming","timestamp":%d}',
      id, counter % 50, 1764460800 + counter)
   return wrk.format("POST", "/v1/lists/" .. list .. "/calls",
      { ["Content-Type"] = "application/json" }, body)
end

function response(status, headers, body)
   if status == 201 then
      created = created + 1
   else
      other = other + 1
   end
end

function done(summary, latency, requests)
   local c, o = 0, 0
   for _, t in ipairs(threads) do
      c = c + t:get("created")
      o = o + t:get("other")
   end
   io.write(string.format("created=%d other=%d duration_us=%d\n", c, o, summary.duration))
end

-- wrk script: cycle through N paths PREFIX0SUFFIX .. PREFIX{N-1}SUFFIX, so no single cached
-- answer serves every request (issue 7, figure 2, "64 lists in rotation").
-- usage: wrk ... -s rotate.lua URL -- PREFIX SUFFIX N
local paths = {}
local i = 0

function init(args)
   local n = tonumber(args[3])
   for k = 0, n - 1 do
      paths[k + 1] = args[1] .. k .. args[2]
   end
   -- threads start at different offsets so they do not march in step
   i = math.random(n) - 1
end

function request()
   i = i % #paths + 1
   return wrk.format("GET", paths[i])
end

-- wrk script for scripts/bench-vtp.sh: each request names a stream ID picked at
-- random from a file, put into a path pattern in place of [[STREAMID]].
--   wrk … -s scripts/bench-vtp.lua URL -- IDS_FILE PATH_PATTERN
local ids = {}
local pattern = "/"

function init(args)
  for line in io.lines(args[1]) do
    if #line > 0 then ids[#ids + 1] = line end
  end
  pattern = args[2]
  math.randomseed(os.time() * 1000 + math.floor(os.clock() * 1000000))
end

function request()
  local id = ids[math.random(#ids)]
  local path = string.gsub(pattern, "%[%[STREAMID%]%]", id)
  return wrk.format("GET", path)
end

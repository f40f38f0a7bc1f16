--[[
  Reads an app's revision and every patch hash in one atomic step, so the revision returned
  never claims changes the patches do not show.

  KEYS[1] app revision          KEYS[2] app patches zset
  ARGV[1] patch key prefix

  Returns { revision, { flat HGETALL of each patch }... }.
]]
local out = { tonumber(redis.call('GET', KEYS[1]) or '0') }
for _, id in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  out[#out + 1] = redis.call('HGETALL', ARGV[1] .. id)
end
return out

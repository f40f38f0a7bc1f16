--[[
  Gives a bug's current round its patch version, once: the first caller takes the block's next
  version number, every later caller (a worker finishing the job of a killed one) gets the same.

  KEYS[1] bug hash              KEYS[2] block version counter
  ARGV[1] round                 ARGV[2] patch id prefix

  Returns { version, patch id } or { -1, status } when the round is stale.
]]
local status = redis.call('HGET', KEYS[1], 'status')
if redis.call('HGET', KEYS[1], 'round') ~= ARGV[1] then
  return { -1, status or 'missing' }
end
local v = redis.call('HGET', KEYS[1], 'patchVersion')
if v then
  return { tonumber(v), redis.call('HGET', KEYS[1], 'patchId') }
end
v = redis.call('INCR', KEYS[2])
local id = ARGV[2] .. '-v' .. v
redis.call('HSET', KEYS[1], 'patchVersion', v, 'patchId', id)
return { v, id }

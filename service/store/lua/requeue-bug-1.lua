--[[
  Opens a new round for a bug (after a rollback or on an admin request): the next job may
  publish a new patch version.

  KEYS[1] bug hash
  Returns the new round, or -1 when the bug does not exist.
]]
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local round = redis.call('HINCRBY', KEYS[1], 'round', 1)
redis.call('HSET', KEYS[1], 'status', 'new')
redis.call('HDEL', KEYS[1], 'patchVersion', 'patchId', 'reason')
return round

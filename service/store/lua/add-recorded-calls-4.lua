--[[
  Merges recorded successful calls of one block into its bounded set of distinct calls.

  KEYS[1] recorded calls hash   KEYS[2] block hash        KEYS[3] app blocks zset
  KEYS[4] apps set
  ARGV[1] max calls             ARGV[2] now (ms)          ARGV[3] app
  ARGV[4] block id              ARGV[5] source hash       ARGV[6] description
  ARGV[7] source                ARGV[8] app blocks member
  ARGV[9..] pairs of (args hash, call json)

  Returns the number of calls added.
]]
if redis.call('EXISTS', KEYS[2]) == 0 then
  redis.call('HSET', KEYS[2], 'app', ARGV[3], 'blockId', ARGV[4], 'sourceHash', ARGV[5], 'source', ARGV[7],
    'description', ARGV[6], 'firstSeen', ARGV[2], 'failures', '0', 'recorded', '0')
end
local max = tonumber(ARGV[1])
local added = 0
for i = 9, #ARGV, 2 do
  if redis.call('HLEN', KEYS[1]) >= max then break end
  added = added + redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1])
end
redis.call('HINCRBY', KEYS[2], 'recorded', added)
redis.call('HSET', KEYS[2], 'lastSeen', ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[8])
redis.call('SADD', KEYS[4], ARGV[3])
return added

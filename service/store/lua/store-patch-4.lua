--[[
  Publishes a signed patch unless it already exists (idempotent per patch id, which is unique
  per bug round), bumps the app's manifest revision and announces the change.

  KEYS[1] patch hash            KEYS[2] app patches zset  KEYS[3] app revision
  KEYS[4] bug hash
  ARGV[1] patch json            ARGV[2] status            ARGV[3] rollout
  ARGV[4] now (ms)              ARGV[5] version           ARGV[6] events channel
  ARGV[7] app                   ARGV[8] fingerprint       ARGV[9] patch id
  ARGV[10] block id

  Returns { stored (1|0), revision }.
]]
if redis.call('EXISTS', KEYS[1]) == 1 then
  return { 0, tonumber(redis.call('GET', KEYS[3]) or '0') }
end
redis.call('HSET', KEYS[1], 'doc', ARGV[1], 'status', ARGV[2], 'rollout', ARGV[3], 'step', '0',
  'passed', '0', 'threw', '0', 'stepPassed', '0', 'stepThrew', '0', 'createdAt', ARGV[4], 'updatedAt', ARGV[4],
  'mode', 'fallback', 'agreed', '0', 'disagreed', '0',
  'app', ARGV[7], 'fingerprint', ARGV[8], 'blockId', ARGV[10])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[9])
redis.call('HSET', KEYS[4], 'status', 'patched', 'patchedAt', ARGV[4])
local rev = redis.call('INCR', KEYS[3])
redis.call('PUBLISH', ARGV[6], cjson.encode({ type = 'patch', app = ARGV[7], fingerprint = ARGV[8], patchId = ARGV[9], status = ARGV[2], revision = rev }))
return { 1, rev }

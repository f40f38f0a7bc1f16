--[[
  Changes a patch's status and rollout when its current status is one of the expected ones
  (admin decisions: approve, reject, promote, roll back), bumps the revision and announces it.

  KEYS[1] patch hash            KEYS[2] app revision      KEYS[3] bug hash
  ARGV[1] expected statuses (comma list)                  ARGV[2] new status
  ARGV[3] rollout               ARGV[4] bug status ('' keeps it)
  ARGV[5] now (ms)              ARGV[6] events channel    ARGV[7] app
  ARGV[8] patch id              ARGV[9] step ('' keeps it)

  Returns { changed (1|0), revision or current status }.
]]
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return { 0, 'missing' } end
local ok = false
for s in string.gmatch(ARGV[1], '[^,]+') do
  if s == status then ok = true end
end
if not ok then return { 0, status } end
redis.call('HSET', KEYS[1], 'status', ARGV[2], 'rollout', ARGV[3], 'updatedAt', ARGV[5], 'stepPassed', '0', 'stepThrew', '0')
if ARGV[9] ~= '' then redis.call('HSET', KEYS[1], 'step', ARGV[9]) end
if ARGV[4] ~= '' then redis.call('HSET', KEYS[3], 'status', ARGV[4]) end
local rev = redis.call('INCR', KEYS[2])
redis.call('PUBLISH', ARGV[6], cjson.encode({ type = 'patch-status', app = ARGV[7], patchId = ARGV[8], status = ARGV[2], rollout = tonumber(ARGV[3]), revision = rev }))
return { 1, rev }

--[[
  Sets how SDKs use a patch (an operator's decision): 'fallback', or 'replace' with the daemon's
  signed grant, when the patch's status is one of the expected ones; bumps the app's manifest
  revision and announces it.

  KEYS[1] patch hash            KEYS[2] app revision
  ARGV[1] expected statuses (comma list)                  ARGV[2] mode
  ARGV[3] grant signature ('' removes it)                 ARGV[4] now (ms)
  ARGV[5] events channel        ARGV[6] app               ARGV[7] patch id

  Returns { changed (1|0), revision or current status, previous mode }.
]]
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return { 0, 'missing', '' } end
local ok = false
for s in string.gmatch(ARGV[1], '[^,]+') do
  if s == status then ok = true end
end
local before = redis.call('HGET', KEYS[1], 'mode') or 'fallback'
if not ok then return { 0, status, before } end
redis.call('HSET', KEYS[1], 'mode', ARGV[2], 'updatedAt', ARGV[4])
if ARGV[3] == '' then
  redis.call('HDEL', KEYS[1], 'modeSignature')
else
  redis.call('HSET', KEYS[1], 'modeSignature', ARGV[3])
end
local rev = redis.call('INCR', KEYS[2])
redis.call('PUBLISH', ARGV[5], cjson.encode({ type = 'patch-mode', app = ARGV[6], patchId = ARGV[7], mode = ARGV[2], revision = rev }))
return { 1, rev, before }

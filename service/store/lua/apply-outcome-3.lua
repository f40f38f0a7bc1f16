--[[
  Adds outcome counts to a patch and applies the rollout rules atomically: roll back when a shadow
  run disagreed with the block (the patch would change an answer the block got right), or when
  the share of patched calls that threw exceeds the threshold (after a minimum of calls); promote
  a canary to its next step after enough clean calls (patched calls that passed and shadow runs
  that agreed) at the current step.

  KEYS[1] patch hash            KEYS[2] app revision      KEYS[3] bug hash
  ARGV[1] passed                ARGV[2] threw             ARGV[3] steps (comma list, ends with 1)
  ARGV[4] clean calls per step  ARGV[5] threshold         ARGV[6] min calls
  ARGV[7] now (ms)              ARGV[8] events channel    ARGV[9] app
  ARGV[10] patch id             ARGV[11] shadow runs agreed                  ARGV[12] disagreed

  Returns { decision, revision, rollout, status, reason } with decision 'counted', 'promoted',
  'rolled-back' or 'ignored' (patch not live), and for a roll-back the reason 'shadow' or 'threw'.
]]
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return { 'missing', 0, '0', '', '' } end
local passed = redis.call('HINCRBY', KEYS[1], 'passed', ARGV[1])
local threw = redis.call('HINCRBY', KEYS[1], 'threw', ARGV[2])
local agreed = tonumber(ARGV[11] or '0')
local disagreed = tonumber(ARGV[12] or '0')
redis.call('HINCRBY', KEYS[1], 'agreed', agreed)
redis.call('HINCRBY', KEYS[1], 'disagreed', disagreed)
if status ~= 'canary' and status ~= 'active' then
  return { 'ignored', 0, redis.call('HGET', KEYS[1], 'rollout'), status, '' }
end
local sp = redis.call('HINCRBY', KEYS[1], 'stepPassed', tonumber(ARGV[1]) + agreed)
local st = redis.call('HINCRBY', KEYS[1], 'stepThrew', ARGV[2])
local threshold = tonumber(ARGV[5])
local total = passed + threw
local function announce(newStatus, rollout)
  local rev = redis.call('INCR', KEYS[2])
  redis.call('PUBLISH', ARGV[8], cjson.encode({ type = 'patch-status', app = ARGV[9], patchId = ARGV[10], status = newStatus, rollout = tonumber(rollout), revision = rev }))
  return rev
end
local reason = ''
if disagreed > 0 then
  reason = 'shadow'
elseif total >= tonumber(ARGV[6]) and threw / total > threshold then
  reason = 'threw'
end
if reason ~= '' then
  redis.call('HSET', KEYS[1], 'status', 'rolled-back', 'rollout', '0', 'updatedAt', ARGV[7])
  redis.call('HSET', KEYS[3], 'status', 'rolled-back')
  return { 'rolled-back', announce('rolled-back', '0'), '0', 'rolled-back', reason }
end
if status == 'canary' and sp >= tonumber(ARGV[4]) and st / (sp + st) <= threshold then
  local steps = {}
  for s in string.gmatch(ARGV[3], '[^,]+') do steps[#steps + 1] = s end
  local step = redis.call('HINCRBY', KEYS[1], 'step', 1)
  local rollout = steps[step + 1] or '1'
  local newStatus = 'canary'
  if tonumber(rollout) >= 1 then
    rollout = '1'
    newStatus = 'active'
  end
  redis.call('HSET', KEYS[1], 'status', newStatus, 'rollout', rollout, 'stepPassed', '0', 'stepThrew', '0', 'updatedAt', ARGV[7])
  return { 'promoted', announce(newStatus, rollout), rollout, newStatus, '' }
end
return { 'counted', 0, redis.call('HGET', KEYS[1], 'rollout'), status, '' }

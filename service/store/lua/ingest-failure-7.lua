--[[
  Stores one failure report atomically: remembers the request id, creates or updates the bug,
  merges the failing input into the bug's bounded set of distinct cases, and records the block.

  KEYS[1] request id key        KEYS[2] bug hash          KEYS[3] bug cases hash
  KEYS[4] app bugs zset         KEYS[5] block hash        KEYS[6] app blocks zset
  KEYS[7] apps set
  ARGV[1] request id ttl (s)    ARGV[2] now (ms)          ARGV[3] app
  ARGV[4] block id              ARGV[5] source hash       ARGV[6] block description
  ARGV[7] block source          ARGV[8] error name        ARGV[9] normalised message
  ARGV[10] top frame            ARGV[11] case hash        ARGV[12] case json
  ARGV[13] max cases            ARGV[14] fingerprint      ARGV[15] app blocks member
  ARGV[16] first message        ARGV[17] stack            ARGV[18] BullMQ job key prefix
  ARGV[19] uses (comma-separated names the block was given; part of the fingerprint)
  ARGV[20] unseen (comma-separated outside names it reads that are not in uses; '' for none)
  ARGV[21] reason stored with status 'cannot-see'

  Returns { fresh (1|0), bug status, round, new case (1|0), job exists (1|0) }. Status 'requeue'
  means a bug whose last job found no patch got a new distinct input and must be queued again
  (round incremented). "Job exists" tells whether BullMQ already holds the job of the returned
  round, so the daemon skips adding it (BullMQ would ignore the add anyway; skipping saves the
  round trip for nearly every report of a bug that keeps failing). The job key is built here
  because the round is only known here; with an empty ARGV[18] it is reported as absent.

  A block that reads names suture cannot see (ARGV[20]) makes a new bug 'cannot-see' (no job: a
  trial would run it without them); the failure and its input are stored all the same. A bug
  already 'cannot-see' whose names are all seen now (the daemon learnt more globals) re-opens
  with a new round ('requeue').
]]
local function jobExists(round)
  if ARGV[18] == nil or ARGV[18] == '' then return 0 end
  local id = ARGV[14]
  if tonumber(round) > 1 then id = id .. '-r' .. round end
  return redis.call('EXISTS', ARGV[18] .. id)
end
local fresh = redis.call('SET', KEYS[1], ARGV[14], 'NX', 'EX', ARGV[1])
local status = redis.call('HGET', KEYS[2], 'status')
if not fresh then
  local r = redis.call('HGET', KEYS[2], 'round') or '1'
  return { 0, status or 'new', r, 0, jobExists(r) }
end
local created = false
if not status then
  redis.call('HSET', KEYS[2], 'fingerprint', ARGV[14], 'app', ARGV[3], 'blockId', ARGV[4], 'sourceHash', ARGV[5],
    'errorName', ARGV[8], 'message', ARGV[9], 'firstMessage', ARGV[16], 'topFrame', ARGV[10], 'stack', ARGV[17],
    'firstSeen', ARGV[2], 'status', 'new', 'round', '1', 'count', '0')
  if ARGV[19] ~= '' then redis.call('HSET', KEYS[2], 'uses', ARGV[19]) end
  status = 'new'
  created = true
end
redis.call('HINCRBY', KEYS[2], 'count', 1)
redis.call('HSET', KEYS[2], 'lastSeen', ARGV[2])
local newCase = 0
if redis.call('HEXISTS', KEYS[3], ARGV[11]) == 0 and redis.call('HLEN', KEYS[3]) < tonumber(ARGV[13]) then
  redis.call('HSET', KEYS[3], ARGV[11], ARGV[12])
  newCase = 1
end
redis.call('ZADD', KEYS[4], ARGV[2], ARGV[14])
if redis.call('EXISTS', KEYS[5]) == 0 then
  redis.call('HSET', KEYS[5], 'app', ARGV[3], 'blockId', ARGV[4], 'sourceHash', ARGV[5], 'source', ARGV[7],
    'description', ARGV[6], 'firstSeen', ARGV[2], 'failures', '0', 'recorded', '0')
end
redis.call('HINCRBY', KEYS[5], 'failures', 1)
redis.call('HSET', KEYS[5], 'lastSeen', ARGV[2])
redis.call('ZADD', KEYS[6], ARGV[2], ARGV[15])
redis.call('SADD', KEYS[7], ARGV[3])
local round = redis.call('HGET', KEYS[2], 'round')
if ARGV[20] ~= '' and (created or status == 'unpatched' or status == 'failed') then
  status = 'cannot-see'
  redis.call('HSET', KEYS[2], 'status', status, 'unseen', ARGV[20], 'reason', ARGV[21])
elseif (ARGV[20] == '' and status == 'cannot-see') or ((status == 'unpatched' or status == 'failed') and newCase == 1) then
  round = tostring(redis.call('HINCRBY', KEYS[2], 'round', 1))
  redis.call('HSET', KEYS[2], 'status', 'new')
  redis.call('HDEL', KEYS[2], 'patchVersion', 'patchId', 'reason', 'unseen')
  status = 'requeue'
end
return { 1, status, round, newCase, jobExists(round) }

"""The Lua scripts of the Redis job queue (:mod:`cognimem.queue.redis`): each state
change of a job is one script, so the job's hash, the stream and the pending entries
list never disagree."""

from __future__ import annotations

from cognimem.queue.base import MAX_ATTEMPTS_PREFIX

# KEYS: job, stream, the tenant's index. ARGV: id, kind, tenant, payload, now, the
# oldest creation time the index keeps (older ids' jobs have expired, or are about to).
ENQUEUE = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  return {0, redis.call('HGET', KEYS[1], 'tenant_id')}
end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', '(' .. ARGV[6])
redis.call('ZADD', KEYS[3], ARGV[5], ARGV[1])
redis.call('HSET', KEYS[1], 'id', ARGV[1], 'kind', ARGV[2], 'tenant_id', ARGV[3],
  'payload', ARGV[4], 'state', 'queued', 'attempts', 0, 'created_at', ARGV[5],
  'updated_at', ARGV[5])
local entry = redis.call('XADD', KEYS[2], '*', 'job_id', ARGV[1])
redis.call('HSET', KEYS[1], 'entry', entry)
return {1, ARGV[3]}
"""

# KEYS: job, stream, dead stream. ARGV: entry, worker, max_attempts, now, group, ttl,
# the end of the expired-lease message. Returns 1 when the entry is now a delivery to `worker`.
START = """
local state = redis.call('HGET', KEYS[1], 'state')
if (not state) or state == 'done' or state == 'failed'
    or redis.call('HGET', KEYS[1], 'entry') ~= ARGV[1] then
  redis.call('XACK', KEYS[2], ARGV[5], ARGV[1])
  redis.call('XDEL', KEYS[2], ARGV[1])
  return 0
end
local err = redis.call('HGET', KEYS[1], 'error')
if state == 'running' then
  err = 'worker ' .. (redis.call('HGET', KEYS[1], 'worker') or '?') .. ARGV[7]
end
local attempts = tonumber(redis.call('HGET', KEYS[1], 'attempts')) + 1
if attempts > tonumber(ARGV[3]) then
  redis.call('HSET', KEYS[1], 'state', 'failed', 'updated_at', ARGV[4], 'delivery', '',
    'error', 'max attempts exceeded: ' .. (err or 'unknown'))
  redis.call('XADD', KEYS[3], 'MAXLEN', '~', 100000, '*', 'job_id',
    redis.call('HGET', KEYS[1], 'id'))
  redis.call('XACK', KEYS[2], ARGV[5], ARGV[1])
  redis.call('XDEL', KEYS[2], ARGV[1])
  redis.call('EXPIRE', KEYS[1], ARGV[6])
  return 0
end
if err then redis.call('HSET', KEYS[1], 'error', err) end
redis.call('HSET', KEYS[1], 'state', 'running', 'attempts', attempts, 'worker', ARGV[2],
  'updated_at', ARGV[4], 'delivery', ARGV[1] .. '/' .. attempts)
return 1
"""

# KEYS: job, stream, dead stream, delayed set. ARGV: delivery, entry, group, now, ttl,
# mode ('ack' | 'retry' | 'fail'), error (for 'ack': what was degraded, or ''),
# max_attempts, result JSON (or ''), when a retry is due (micros; 0: now).
# Returns 0 for a stale delivery.
FINISH = """
if redis.call('HGET', KEYS[1], 'delivery') ~= ARGV[1]
    or redis.call('HGET', KEYS[1], 'state') ~= 'running' then
  return 0
end
redis.call('XACK', KEYS[2], ARGV[3], ARGV[2])
redis.call('XDEL', KEYS[2], ARGV[2])
redis.call('HSET', KEYS[1], 'updated_at', ARGV[4], 'delivery', '')
if ARGV[6] == 'ack' then
  redis.call('HSET', KEYS[1], 'state', 'done')
  if ARGV[9] ~= '' then redis.call('HSET', KEYS[1], 'result', ARGV[9], 'progress', 1) end
  if ARGV[7] == '' then
    redis.call('HDEL', KEYS[1], 'error')
  else
    redis.call('HSET', KEYS[1], 'error', ARGV[7])
  end
  redis.call('EXPIRE', KEYS[1], ARGV[5])
  return 1
end
local attempts = tonumber(redis.call('HGET', KEYS[1], 'attempts'))
if ARGV[6] == 'retry' and attempts < tonumber(ARGV[8]) then
  if tonumber(ARGV[10]) > tonumber(ARGV[4]) then
    redis.call('HSET', KEYS[1], 'state', 'queued', 'error', ARGV[7], 'entry', '')
    redis.call('ZADD', KEYS[4], ARGV[10], redis.call('HGET', KEYS[1], 'id'))
    return 1
  end
  local entry = redis.call('XADD', KEYS[2], '*', 'job_id', redis.call('HGET', KEYS[1], 'id'))
  redis.call('HSET', KEYS[1], 'state', 'queued', 'error', ARGV[7], 'entry', entry)
  return 1
end
local err = ARGV[7]
if ARGV[6] == 'retry' then err = 'max attempts exceeded: ' .. err end
redis.call('HSET', KEYS[1], 'state', 'failed', 'error', err)
redis.call('XADD', KEYS[3], 'MAXLEN', '~', 100000, '*', 'job_id', redis.call('HGET', KEYS[1], 'id'))
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""

# KEYS: job, stream, delayed set, tenant index. ARGV: group, tenant. Deletes the job (if
# it is still the tenant's), its stream entry and its ids in the sets; a worker holding it
# finds no job to ack. Returns 1 if it was deleted.
PURGE = """
if redis.call('HGET', KEYS[1], 'tenant_id') ~= ARGV[2] then
  return 0
end
local entry = redis.call('HGET', KEYS[1], 'entry')
if entry and entry ~= '' then
  redis.call('XACK', KEYS[2], ARGV[1], entry)
  redis.call('XDEL', KEYS[2], entry)
end
local id = redis.call('HGET', KEYS[1], 'id')
redis.call('ZREM', KEYS[3], id)
redis.call('ZREM', KEYS[4], id)
return redis.call('DEL', KEYS[1])
"""

# KEYS: job, stream. ARGV: delivery, group, now, progress ('' for none). Resets the
# entry's idle time (the lease) when the delivery is current; returns 1 then, else 0.
HEARTBEAT = """
if redis.call('HGET', KEYS[1], 'delivery') ~= ARGV[1]
    or redis.call('HGET', KEYS[1], 'state') ~= 'running' then
  return 0
end
local entry = redis.call('HGET', KEYS[1], 'entry')
redis.call('XCLAIM', KEYS[2], ARGV[2], redis.call('HGET', KEYS[1], 'worker'), 0, entry,
  'JUSTID')
redis.call('HSET', KEYS[1], 'updated_at', ARGV[3])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'progress', ARGV[4]) end
return 1
"""

# KEYS: delayed set, stream. ARGV: now, key prefix. Moves the retries that are due into
# the stream.
PROMOTE = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 100)
for _, id in ipairs(due) do
  redis.call('ZREM', KEYS[1], id)
  local key = ARGV[2] .. id
  if redis.call('HGET', key, 'state') == 'queued' then
    local entry = redis.call('XADD', KEYS[2], '*', 'job_id', id)
    redis.call('HSET', key, 'entry', entry)
  end
end
return #due
"""

assert MAX_ATTEMPTS_PREFIX == "max attempts exceeded: "  # spelled out in the scripts above

-- wrk script: SendMessageBatch of 10 entries x 100 bytes to QUEUE_URL (default: bench).
-- usage: wrk -t2 -c64 -d20s -s loadtest/wrk/send-batch.lua http://127.0.0.1:9324/
local queue = os.getenv("QUEUE_URL") or "http://127.0.0.1:9324/000000000000/bench"
local entries = {}
for i = 1, 10 do
  entries[i] = '{"Id":"e' .. i .. '","MessageBody":"' .. string.rep("x", 100) .. '"}'
end
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/x-amz-json-1.0"
wrk.headers["X-Amz-Target"] = "AmazonSQS.SendMessageBatch"
wrk.body = '{"QueueUrl":"' .. queue .. '","Entries":[' .. table.concat(entries, ",") .. ']}'

function response(status, headers, body)
  if status ~= 200 then
    io.stderr:write("unexpected status " .. status .. ": " .. body .. "\n")
  end
end

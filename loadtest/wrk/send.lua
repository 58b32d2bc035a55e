-- wrk script: SendMessage of a 100-byte body to the queue named by QUEUE_URL (default: bench).
-- usage: wrk -t2 -c64 -d20s -s loadtest/wrk/send.lua http://127.0.0.1:9324/
local queue = os.getenv("QUEUE_URL") or "http://127.0.0.1:9324/000000000000/bench"
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/x-amz-json-1.0"
wrk.headers["X-Amz-Target"] = "AmazonSQS.SendMessage"
wrk.body = '{"QueueUrl":"' .. queue .. '","MessageBody":"' .. string.rep("x", 100) .. '"}'

function response(status, headers, body)
  if status ~= 200 then
    io.stderr:write("unexpected status " .. status .. ": " .. body .. "\n")
  end
end

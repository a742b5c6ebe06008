// Requests to the public /v1 API, with one clear message for every way they can fail.
// Every request is bounded: a client timeout, and a capped number of 202 "still working" retries.

export class ApiError extends Error {
  // kind: "input" (a 4xx with the service's message), "busy" (503), "connection" (no answer),
  // "timeout" (no answer in time), "pending" (still working after every retry), "server" (5xx).
  constructor(kind, message, status = 0) {
    super(message);
    this.kind = kind;
    this.status = status;
  }
}

const TIMEOUT_MS = 45000;     // one request, waiting included (the service waits at most 30 s)
const PATIENCE_MS = 90000;    // all the 202 retries of one question together

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function once(method, path, body) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
    });
  } catch (error) {
    if (error.name === "AbortError") {
      throw new ApiError("timeout", `The service did not answer within ${TIMEOUT_MS / 1000} s. Try again.`);
    }
    throw new ApiError("connection", "Lost the connection to the service. Check the network, then try again.");
  } finally {
    clearTimeout(timer);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (response.status === 503) {
    const after = response.headers.get("retry-after");
    const message = data?.error?.message || "the solver pool is full";
    throw new ApiError("busy", `The service is busy (${message}). Try again${after ? ` in ${after} s` : " shortly"}.`, 503);
  }
  if (response.status >= 500) {
    throw new ApiError("server", data?.error?.message || `The service failed (HTTP ${response.status}).`,
      response.status);
  }
  if (response.status >= 400) {
    throw new ApiError("input", data?.error?.message || `Refused (HTTP ${response.status}).`, response.status);
  }
  if (data === null) {
    throw new ApiError("server", "The service sent an answer that is not JSON.", response.status);
  }
  return { status: response.status, data };
}

// A request whose answer may be 202 {pending, retry_after}: asked again until answered or out of patience.
// onPending(data, waitedSeconds) is called before each retry, so the page can say what is going on.
export async function ask(method, path, body, onPending = () => {}) {
  const started = Date.now();
  for (;;) {
    const { status, data } = await once(method, path, body);
    if (status !== 202 || !data.pending) {
      return data;
    }
    const waited = (Date.now() - started) / 1000;
    const retry = Math.max(1, Math.min(Number(data.retry_after) || 2, 10)) * 1000;
    if (Date.now() - started + retry > PATIENCE_MS) {
      throw new ApiError("pending", `Still working after ${Math.round(waited)} s: the service goes on and keeps the `
        + "answer, so ask again in a minute.");
    }
    onPending(data, waited);
    await sleep(retry);
  }
}

export const api = {
  deal: (code) => ask("GET", `v1/deals/${encodeURIComponent(code)}`),
  solution: (code, onPending) => ask("GET", `v1/deals/${encodeURIComponent(code)}/solution`, undefined, onPending),
  replay: (code, moves) => ask("POST", "v1/replay", { code, moves }),
  hint: (code, moves, onPending) => ask("POST", "v1/hint", { code, moves }, onPending),
  fairHint: (code, moves, onPending) => ask("POST", "v1/fair-hint", { code, moves }, onPending),
  analyze: (code, moves, onPending) => ask("POST", "v1/analyze", { code, moves }, onPending),
  curated: (tier, after) => ask("GET", `v1/curated?count=1&tier=${encodeURIComponent(tier)}`
    + (after ? `&after=${encodeURIComponent(after)}` : "")),
};

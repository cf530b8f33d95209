// The SCORM launcher, on the content origin: it hosts scorm-again as the SCO's run time
// (window.API for SCORM 1.2, window.API_1484_11 for SCORM 2004) and runs the SCO in the frame
// below it. It talks to the portal's page only by postMessage: it takes the item to run and
// its data model from the portal's page, and hands every commit back to it, which saves it
// as the learner. This page holds no session and calls no portal API.
(() => {
  const portalOrigin = document.querySelector('meta[name="portal-origin"]').content;
  const frame = document.getElementById("sco");
  let started = false;

  const post = (message) => window.parent.postMessage(message, portalOrigin);

  /** Commits go to the portal's page, which saves them; SCORM asks for an answer at once. */
  function bridge(itemId) {
    return {
      processHttpRequest(_url, params, immediate, _log, listeners, metadata) {
        const finish = metadata ? metadata.isTerminateCommit === true : immediate === true;
        post({ type: "scorm:commit", itemId, cmi: params.cmi, finish });
        listeners("CommitSuccess");
        return { result: "true", errorCode: 0 };
      },
      updateSettings() {},
    };
  }

  function start(message) {
    const { standard, itemId, launchUrl, cmi } = message;
    // Only the package's own files, on this origin, run here.
    if (typeof launchUrl !== "string" || !launchUrl.startsWith(`${window.location.origin}/p/`)) {
      return;
    }
    started = true;
    const settings = {
      lmsCommitUrl: "portal",
      httpService: bridge(itemId),
      // A change reaches the portal within two seconds, so leaving the page loses little.
      autocommit: true,
      autocommitSeconds: 2,
      alwaysSendTotalTime: true,
      logLevel: 5,
    };
    const api =
      standard === "scorm12" ? new window.Scorm12API(settings) : new window.Scorm2004API(settings);
    api.loadFromJSON(cmi ?? {}, "");
    const navigate = (request) => () => post({ type: "scorm:navigate", itemId, request });
    const running = () => post({ type: "scorm:initialized", itemId });
    api.on(standard === "scorm12" ? "LMSInitialize" : "Initialize", running);
    api.on("SequenceNext", navigate("next"));
    api.on("SequencePrevious", navigate("previous"));
    if (standard === "scorm12") window.API = api;
    else window.API_1484_11 = api;
    frame.src = launchUrl;
  }

  window.addEventListener("message", (event) => {
    if (event.origin !== portalOrigin || event.source !== window.parent) return;
    const message = event.data;
    if (!message || message.type !== "scorm:start" || started) return;
    start(message);
  });

  post({ type: "scorm:ready" });
})();

/**
 * Hostile titles and names, shared by the API suite and the browser check
 * (e2e/security-xss.spec.ts): each must be stored and answered verbatim, and render as
 * plain text. Every script payload sets `window.__xss`, so the browser check can tell.
 */
export const HOSTILE_STRINGS = {
  moodle: "< > & &lt; &gt; &amp; ' \\' 碁 \\ \\\\",
  script: "<script>window.__xss = 1</script>",
  imgOnerror: '<img src=x onerror="window.__xss = 1">',
  svgOnload: '<svg onload="window.__xss = 1"></svg>',
  javascriptUrl: "javascript:window.__xss = 1",
  quotes: `"'><iframe srcdoc="<script>parent.__xss=1</script>">`,
} as const;

/** The URL parser drops leading and trailing C0 controls and spaces: "\u0001javascript:" is a scheme too. */
function trimC0(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 0x20) {
    start++;
  }
  while (end > start && text.charCodeAt(end - 1) <= 0x20) {
    end--;
  }
  return text.slice(start, end);
}

/** Adds https:// to a bare host ("example.com/x"), as a person typing in the address bar would expect. */
export function normalizeUrl(url: string): string {
  const trimmed = trimC0(url);
  // Browsers drop tabs and newlines anywhere in a URL: "java\tscript:" is a scheme too.
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed.replace(/[\t\n\r]/g, ''))) {
    return trimmed;
  }
  return `https://${trimmed}`;
}

import { XMLParser, XMLValidator } from "fast-xml-parser";

/**
 * A manifest as a plain tree of elements, in document order. Names are local (a namespace
 * prefix is dropped: `adlcp:masteryscore` is `masteryscore`), because authoring tools
 * choose their own prefixes; the namespaces themselves stay readable as the `xmlns`
 * attributes they were declared with.
 */
export interface XmlElement {
  /** The local name. */
  name: string;
  /** Attributes by their name as written (`adlcp:scormtype`, `xml:base`, `xmlns:adlcp`). */
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text, its parts joined (not its children's). */
  text: string;
}

export type XmlResult =
  | { kind: "empty" }
  | { kind: "invalid"; problem: string }
  | { kind: "document"; root: XmlElement };

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // DOCTYPE entities stay within the parser's limits on their number and expansion.
  processEntities: true,
  htmlEntities: false,
});

const localName = (name: string) => name.slice(name.indexOf(":") + 1);

type OrderedNode = Record<string, unknown> & { ":@"?: Record<string, string> };

function toElement(node: OrderedNode): XmlElement | null {
  const name = Object.keys(node).find((key) => key !== ":@");
  if (!name || name.startsWith("#") || name.startsWith("?") || name.startsWith("!")) return null;
  const element: XmlElement = {
    name: localName(name),
    attributes: { ...(node[":@"] ?? {}) },
    children: [],
    text: "",
  };
  for (const child of (node[name] as OrderedNode[] | undefined) ?? []) {
    if ("#text" in child) element.text += String(child["#text"]);
    else {
      const sub = toElement(child);
      if (sub) element.children.push(sub);
    }
  }
  return element;
}

/** The text of a manifest file: UTF-8 or UTF-16 as its byte-order mark says, mark removed. */
export function decodeXml(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString("utf16le");
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    const swapped = Buffer.from(bytes.subarray(2));
    swapped.swap16();
    return swapped.toString("utf16le");
  }
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return bytes.subarray(3).toString("utf8");
  }
  return bytes.toString("utf8");
}

/**
 * `text` without each span from `open` to the next `close`, in one pass: a lazy pattern
 * scanned to the end of the file again for every unclosed `open`, and a manifest of
 * thousands of them held the portal for seconds.
 */
export function without(text: string, open: string, close: string): string {
  let kept = "";
  let from = 0;
  for (;;) {
    const at = text.indexOf(open, from);
    const end = at < 0 ? -1 : text.indexOf(close, at + open.length);
    // Past the last span that closes, the rest stands as it is.
    if (end < 0) return kept + text.slice(from);
    kept += text.slice(from, at);
    from = end + close.length;
  }
}

/** Parses a manifest; "empty" when it has no element at all, "invalid" when it is not XML. */
export function parseXml(text: string): XmlResult {
  const bare = without(without(text, "<?", "?>"), "<!--", "-->").trim();
  if (!bare) return { kind: "empty" };
  const checked = XMLValidator.validate(text);
  if (checked !== true) {
    const problem = checked.err.msg.replace(/\.$/, "");
    return { kind: "invalid", problem: `${problem} (line ${checked.err.line}).` };
  }
  let nodes: OrderedNode[];
  try {
    nodes = parser.parse(text) as OrderedNode[];
  } catch (err) {
    // The parser's own limits (entities too many or too large) refuse the document.
    return { kind: "invalid", problem: `${(err as Error).message.replace(/\.$/, "")}.` };
  }
  const roots = nodes.map(toElement).filter((e): e is XmlElement => e !== null);
  const [root] = roots;
  if (!root) return { kind: "empty" };
  if (roots.length > 1) {
    return { kind: "invalid", problem: "it has more than one top-level element." };
  }
  return { kind: "document", root };
}

/** The element's children with this local name. */
export const childrenNamed = (element: XmlElement, name: string) =>
  element.children.filter((c) => c.name === name);

/** The element's first child with this local name. */
export const childNamed = (element: XmlElement, name: string) =>
  element.children.find((c) => c.name === name);

/**
 * An attribute by its local name, whatever its prefix, letter case aside: SCORM 1.2 writes
 * `adlcp:scormtype` where SCORM 2004 writes `adlcp:scormType`.
 */
export function attribute(element: XmlElement, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(element.attributes)) {
    if (key.startsWith("xmlns")) continue;
    if (localName(key).toLowerCase() === wanted) return value;
  }
  return undefined;
}

/** Text as people read it: whitespace runs made one space, trimmed. */
export const plainText = (text: string) => text.replace(/\s+/g, " ").trim();

/** Every namespace the element declares (the values of its `xmlns` attributes). */
export const namespacesOf = (element: XmlElement) =>
  Object.entries(element.attributes)
    .filter(([key]) => key === "xmlns" || key.startsWith("xmlns:"))
    .map(([, value]) => value.trim());

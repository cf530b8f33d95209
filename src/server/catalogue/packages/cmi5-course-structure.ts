import { type PackageLaunch, resolveLaunch, sameNameOtherCase } from "./launch-paths";
import { invalidManifest, launchMissing, nothingToLaunch } from "./packages.errors";
import {
  attribute,
  childNamed,
  childrenNamed,
  plainText,
  type XmlElement,
  type XmlResult,
} from "./xml-tree";

const MANIFEST = "cmi5.xml";

const MOVE_ON = [
  "Passed",
  "Completed",
  "CompletedAndPassed",
  "CompletedOrPassed",
  "NotApplicable",
] as const;
type MoveOn = (typeof MOVE_ON)[number];
const LAUNCH_METHODS = ["AnyWindow", "OwnWindow"] as const;
type LaunchMethod = (typeof LAUNCH_METHODS)[number];

/** One assignable unit of a cmi5 course, with what the LMS decides and launches by. */
export interface Cmi5Au {
  id: string;
  title: string;
  description: string;
  /**
   * What the LMS launches: a file of the package with its query ("index.html",
   * "?pages=1"), or the address of an AU hosted elsewhere.
   */
  launch: PackageLaunch;
  moveOn: MoveOn;
  /** The scaled score (0 to 1) that passes the AU, sent to it in LMS.LaunchData. */
  masteryScore: number | null;
  launchMethod: LaunchMethod;
  launchParameters: string | null;
  entitlementKey: string | null;
  activityType: string | null;
  /** The objectives the AU teaches, by id. */
  objectives: string[];
  /** The blocks that hold the AU, outermost first. */
  blocks: string[];
}

interface Cmi5Block {
  id: string;
  title: string;
  description: string;
  /** The block that holds this one, or null at the course's top. */
  parent: string | null;
  objectives: string[];
}

export interface Cmi5Description {
  standard: "cmi5";
  version: "cmi5";
  /** The course's IRI, the activity id of the LMS's own statements. */
  courseId: string;
  title: string;
  description: string;
  items: Cmi5Au[];
  blocks: Cmi5Block[];
  objectives: { id: string; title: string; description: string }[];
}

/**
 * The order of the course structure's elements (cmi5's CourseStructure.xsd): an element
 * out of order, or one the schema does not have, makes the file invalid.
 */
const ORDER: Record<string, string[]> = {
  courseStructure: ["course", "objectives", "au", "block"],
  course: ["title", "description"],
  block: ["title", "description", "objectives", "au", "block"],
  au: ["title", "description", "objectives", "url", "launchParameters", "entitlementKey"],
};
/** Blocks and AUs may come in any order after the elements before them. */
const INTERLEAVED = new Set(["au", "block"]);
/** The cmi5 launch parameters an AU's own query may not name (cmi5 8.1). */
const RESERVED_PARAMETERS = ["endpoint", "fetch", "actor", "registration", "activityId"];
/** An IRI: a scheme, then no whitespace (cmi5 3.0: every id is an IRI). */
const IRI = /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/;

/** A langstring element's text: the first language given. */
function langText(element: XmlElement | undefined): string {
  if (!element) return "";
  const first = childNamed(element, "langstring");
  return plainText(first ? first.text : element.text);
}

function checkOrder(element: XmlElement, where: string) {
  const order = ORDER[element.name]!;
  let position = 0;
  for (const child of element.children) {
    const index = order.indexOf(child.name);
    // Elements the schema leaves open (extensions of other namespaces) stay where they are.
    if (index === -1) continue;
    const allowedBack = INTERLEAVED.has(child.name) && INTERLEAVED.has(order[position]!);
    if (index < position && !allowedBack) {
      throw invalidManifest(
        MANIFEST,
        `in ${where}, <${child.name}> comes after <${order[position]}>, where the cmi5 course structure does not allow it.`,
      );
    }
    position = Math.max(position, index);
  }
}

function requireIri(id: string | undefined, what: string): string {
  const value = id?.trim() ?? "";
  if (!value) throw invalidManifest(MANIFEST, `${what} has no id.`);
  if (!IRI.test(value)) {
    throw invalidManifest(
      MANIFEST,
      `the id of ${what} ("${value}") is not an IRI: cmi5 ids must be full addresses such as https://example.com/course/1.`,
    );
  }
  return value;
}

function titleOf(element: XmlElement, what: string): string {
  const title = langText(childNamed(element, "title"));
  if (!title) throw invalidManifest(MANIFEST, `${what} has no title.`);
  return title;
}

function objectiveRefs(element: XmlElement): string[] {
  const objectives = childNamed(element, "objectives");
  return objectives
    ? childrenNamed(objectives, "objective").map((o) => attribute(o, "idref") ?? "")
    : [];
}

/**
 * Reads a cmi5 package's `cmi5.xml`: the course, its blocks and AUs in order, with what the
 * LMS needs of each (moveOn, masteryScore, launchMethod, its launch address checked against
 * the package's files). Throws the package's refusal.
 */
export function readCmi5CourseStructure(
  parsed: XmlResult,
  files: ReadonlySet<string>,
): Cmi5Description {
  if (parsed.kind === "empty") throw nothingToLaunch(MANIFEST);
  if (parsed.kind === "invalid") throw invalidManifest(MANIFEST, parsed.problem);
  const root = parsed.root;
  if (root.name !== "courseStructure") {
    throw invalidManifest(MANIFEST, `its top element is <${root.name}>, not <courseStructure>.`);
  }
  checkOrder(root, "the course structure");
  const courses = childrenNamed(root, "course");
  if (courses.length !== 1) {
    throw invalidManifest(MANIFEST, "it must describe exactly one <course>.");
  }
  const course = courses[0]!;
  checkOrder(course, "the course");
  const ids = new Set<string>();
  const unique = (id: string, what: string) => {
    if (ids.has(id)) throw invalidManifest(MANIFEST, `${what} "${id}" is named twice.`);
    ids.add(id);
    return id;
  };
  const courseId = unique(requireIri(attribute(course, "id"), "the course"), "the id");

  const objectivesElement = childNamed(root, "objectives");
  const objectives = (objectivesElement ? childrenNamed(objectivesElement, "objective") : []).map(
    (o) => ({
      id: unique(requireIri(attribute(o, "id"), "an objective"), "the objective"),
      title: titleOf(o, "an objective"),
      description: langText(childNamed(o, "description")),
    }),
  );
  const known = new Set(objectives.map((o) => o.id));
  const checkRefs = (refs: string[], what: string) => {
    for (const ref of refs) {
      if (!known.has(ref)) {
        throw invalidManifest(
          MANIFEST,
          `${what} refers to the objective "${ref}", which the course does not list.`,
        );
      }
    }
    return refs;
  };

  const items: Cmi5Au[] = [];
  const blocks: Cmi5Block[] = [];
  function walk(element: XmlElement, path: string[]) {
    for (const child of element.children) {
      if (child.name === "block") {
        checkOrder(child, "a block");
        const id = unique(requireIri(attribute(child, "id"), "a block"), "the block");
        const title = titleOf(child, `the block "${id}"`);
        blocks.push({
          id,
          title,
          description: langText(childNamed(child, "description")),
          parent: path.at(-1) ?? null,
          objectives: checkRefs(objectiveRefs(child), `the block "${title}"`),
        });
        walk(child, [...path, id]);
      } else if (child.name === "au") {
        items.push(readAu(child, path));
      }
    }
  }

  function readAu(au: XmlElement, path: string[]): Cmi5Au {
    checkOrder(au, "an AU");
    const id = unique(requireIri(attribute(au, "id"), "an AU"), "the AU");
    const title = titleOf(au, `the AU "${id}"`);
    const url = childNamed(au, "url")?.text.trim() ?? "";
    if (!url) throw invalidManifest(MANIFEST, `the AU "${title}" has no url to launch.`);
    if (/\s/.test(url)) {
      throw invalidManifest(
        MANIFEST,
        `the url of the AU "${title}" ("${url}") is not a valid address.`,
      );
    }
    const target = resolveLaunch(url);
    let launch: PackageLaunch;
    let query: URLSearchParams;
    if (target.kind === "elsewhere") {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw invalidManifest(
          MANIFEST,
          `the url of the AU "${title}" ("${url}") is not a valid address.`,
        );
      }
      if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
        throw invalidManifest(
          MANIFEST,
          `the AU "${title}" must be launched from a web address, not "${url}".`,
        );
      }
      query = parsed.searchParams;
      launch = { url };
    } else {
      if (!files.has(target.file)) {
        throw launchMissing(
          `The AU "${title}"`,
          target.file,
          sameNameOtherCase(files, target.file),
        );
      }
      launch = { file: target.file, query: target.suffix };
      const q = target.suffix.startsWith("?") ? target.suffix.slice(1).split("#")[0]! : "";
      query = new URLSearchParams(q);
    }
    const reserved = RESERVED_PARAMETERS.find((name) => query.has(name));
    if (reserved) {
      throw invalidManifest(
        MANIFEST,
        `the url of the AU "${title}" sets "${reserved}", a launch parameter the LMS itself adds.`,
      );
    }
    const moveOn = attribute(au, "moveOn")?.trim() || "NotApplicable";
    if (!(MOVE_ON as readonly string[]).includes(moveOn)) {
      throw invalidManifest(
        MANIFEST,
        `the AU "${title}" has the moveOn "${moveOn}", which cmi5 does not define.`,
      );
    }
    const launchMethod = attribute(au, "launchMethod")?.trim() || "AnyWindow";
    if (!(LAUNCH_METHODS as readonly string[]).includes(launchMethod)) {
      throw invalidManifest(
        MANIFEST,
        `the AU "${title}" has the launchMethod "${launchMethod}"; cmi5 has AnyWindow and OwnWindow.`,
      );
    }
    const mastery = attribute(au, "masteryScore");
    let masteryScore: number | null = null;
    if (mastery !== undefined && mastery.trim() !== "") {
      masteryScore = Number(mastery);
      if (!Number.isFinite(masteryScore) || masteryScore < 0 || masteryScore > 1) {
        throw invalidManifest(
          MANIFEST,
          `the masteryScore of the AU "${title}" ("${mastery}") must be a number from 0 to 1.`,
        );
      }
    }
    const textOf = (name: string) => {
      const element = childNamed(au, name);
      return element ? element.text.trim() || null : null;
    };
    return {
      id,
      title,
      description: langText(childNamed(au, "description")),
      launch,
      moveOn: moveOn as MoveOn,
      masteryScore,
      launchMethod: launchMethod as LaunchMethod,
      launchParameters: textOf("launchParameters"),
      entitlementKey: textOf("entitlementKey"),
      activityType: attribute(au, "activityType")?.trim() || null,
      objectives: checkRefs(objectiveRefs(au), `the AU "${title}"`),
      blocks: path,
    };
  }

  walk(root, []);
  if (!items.length) throw nothingToLaunch(MANIFEST);
  return {
    standard: "cmi5",
    version: "cmi5",
    courseId,
    title: titleOf(course, "the course"),
    description: langText(childNamed(course, "description")),
    items,
    blocks,
    objectives,
  };
}

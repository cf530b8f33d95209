import { PACKAGE_ITEM_ID_MAX } from "../../../contract";
import { resolveLaunch, sameNameOtherCase } from "./launch-paths";
import {
  invalidManifest,
  launchMissing,
  noOrganization,
  nothingToLaunch,
  unknownVersion,
  unsafePath,
} from "./packages.errors";
import {
  attribute,
  childNamed,
  childrenNamed,
  namespacesOf,
  plainText,
  type XmlElement,
  type XmlResult,
} from "./xml-tree";

const MANIFEST = "imsmanifest.xml";

/** One item of a SCORM organization that launches a SCO or an asset. */
export interface ScormItem {
  /** The item's identifier in the manifest. */
  id: string;
  title: string;
  /**
   * What the run time opens: a file of the package (checked to be there), with the query of
   * the resource's href and the item's parameters joined as SCORM says.
   */
  launch: { file: string; query: string };
  resourceId: string;
  /** A SCO talks to the run time; an asset is only shown. */
  scormType: "sco" | "asset";
  parameters: string | null;
  isVisible: boolean;
  /** The item's `dataFromLMS` (`cmi.launch_data`). */
  dataFromLms: string | null;
  /** SCORM 1.2's `masteryscore` (0 to 100), which decides passed or failed from the score. */
  masteryScore: number | null;
  /** SCORM 1.2's `maxtimeallowed`, SCORM 2004's attempt duration limit. */
  maxTimeAllowed: string | null;
  timeLimitAction: string | null;
  /** SCORM 1.2's `prerequisites` (an AICC script naming other items). */
  prerequisites: string | null;
  /** SCORM 2004's `completionThreshold` (`cmi.completion_threshold`). */
  completionThreshold: number | null;
  /**
   * SCORM 2004's primary objective: its id, and whether its measure decides satisfaction
   * against `minNormalizedMeasure` (`cmi.scaled_passing_score`).
   */
  primaryObjective: {
    id: string | null;
    satisfiedByMeasure: boolean;
    minNormalizedMeasure: number | null;
  } | null;
}

/** The organization as a table of contents: aggregations and the items they hold. */
interface ScormOutlineNode {
  id: string;
  title: string;
  /** Whether the node launches something (it is then among the description's items). */
  launches: boolean;
  isVisible: boolean;
  children: ScormOutlineNode[];
}

export interface ScormDescription {
  standard: "scorm12" | "scorm2004";
  /** The schema version as the manifest states it ("1.2", "2004 4th Edition", "CAM 1.3"). */
  version: string;
  manifestId: string | null;
  /** The organization played: its identifier and title. */
  organizationId: string;
  title: string;
  items: ScormItem[];
  outline: ScormOutlineNode[];
  /** SCORM 2004 organization settings that scope objectives and shared data. */
  objectivesGlobalToSystem: boolean;
  sharedDataGlobalToSystem: boolean;
}

/** The versions Credo plays, by the words a manifest's `schemaversion` uses. */
const VERSIONS: Record<string, "scorm12" | "scorm2004"> = {
  "1.2": "scorm12",
  "cam 1.3": "scorm2004",
  "2004 3rd edition": "scorm2004",
  "2004 4th edition": "scorm2004",
};
const SCORM12_NAMESPACE = "http://www.adlnet.org/xsd/adlcp_rootv1p2";
const SCORM2004_NAMESPACE = "http://www.adlnet.org/xsd/adlcp_v1p3";

/** A child by its local name, letter case aside (SCORM 1.2 and 2004 spell them apart). */
const childLike = (element: XmlElement, name: string) =>
  element.children.find((c) => c.name.toLowerCase() === name.toLowerCase());
const childText = (element: XmlElement, name: string) => {
  const child = childLike(element, name);
  const text = child ? plainText(child.text) : "";
  return text || null;
};
const numberOrNull = (text: string | null | undefined) => {
  if (text === null || text === undefined || text.trim() === "") return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
};
const isTrue = (text: string | undefined, fallback: boolean) =>
  text === undefined ? fallback : text.trim().toLowerCase() === "true";

function detectVersion(manifest: XmlElement): {
  standard: "scorm12" | "scorm2004";
  version: string;
} {
  const metadata = childNamed(manifest, "metadata");
  const stated = metadata ? childText(metadata, "schemaversion") : null;
  if (stated) {
    const standard = VERSIONS[stated.toLowerCase()];
    if (!standard) throw unknownVersion(stated);
    return { standard, version: stated };
  }
  const namespaces = namespacesOf(manifest);
  if (namespaces.includes(SCORM2004_NAMESPACE)) return { standard: "scorm2004", version: "2004" };
  if (namespaces.includes(SCORM12_NAMESPACE)) return { standard: "scorm12", version: "1.2" };
  throw unknownVersion(null);
}

/** SCORM joins an item's parameters to its resource's href as SCORM 2004 CAM 3.4.1.6 says. */
function joinParameters(suffix: string, parameters: string | null): string {
  let extra = parameters?.trim() ?? "";
  if (!extra) return suffix;
  while (extra.startsWith("?") || extra.startsWith("&")) extra = extra.slice(1);
  if (extra.startsWith("#")) return suffix.includes("#") ? suffix : `${suffix}${extra}`;
  const [query, fragment] = suffix.includes("#")
    ? [suffix.slice(0, suffix.indexOf("#")), suffix.slice(suffix.indexOf("#"))]
    : [suffix, ""];
  return `${query}${query.includes("?") ? "&" : "?"}${extra}${fragment}`;
}

function primaryObjectiveOf(item: XmlElement): ScormItem["primaryObjective"] {
  const sequencing = childNamed(item, "sequencing");
  const objectives = sequencing && childNamed(sequencing, "objectives");
  const primary = objectives && childNamed(objectives, "primaryObjective");
  if (!primary) return null;
  const measure = childNamed(primary, "minNormalizedMeasure");
  return {
    id: attribute(primary, "objectiveID") ?? null,
    satisfiedByMeasure: isTrue(attribute(primary, "satisfiedByMeasure"), false),
    minNormalizedMeasure: numberOrNull(measure ? plainText(measure.text) : null),
  };
}

function completionThresholdOf(item: XmlElement): number | null {
  const threshold = childLike(item, "completionThreshold");
  if (!threshold) return null;
  // 3rd edition writes the value as text, 4th edition as minProgressMeasure.
  return numberOrNull(attribute(threshold, "minProgressMeasure") ?? plainText(threshold.text));
}

function attemptLimitOf(item: XmlElement): string | null {
  const sequencing = childNamed(item, "sequencing");
  const limits = sequencing && childNamed(sequencing, "limitConditions");
  return (limits && attribute(limits, "attemptAbsoluteDurationLimit")) ?? null;
}

/**
 * Reads a SCORM package's `imsmanifest.xml`: its version, the organization it plays (the
 * default one, else the first), and every item that launches something, each launch file
 * checked against the package's files. Throws the package's refusal.
 */
export function readScormManifest(parsed: XmlResult, files: ReadonlySet<string>): ScormDescription {
  if (parsed.kind === "empty") throw nothingToLaunch(MANIFEST);
  if (parsed.kind === "invalid") throw invalidManifest(MANIFEST, parsed.problem);
  const manifest = parsed.root;
  if (manifest.name !== "manifest") {
    throw invalidManifest(MANIFEST, `its top element is <${manifest.name}>, not <manifest>.`);
  }
  const { standard, version } = detectVersion(manifest);

  const organizationsElement = childNamed(manifest, "organizations");
  const organizations = organizationsElement
    ? childrenNamed(organizationsElement, "organization")
    : [];
  if (!organizations.length) throw noOrganization();
  const wanted = organizationsElement && attribute(organizationsElement, "default");
  const organization =
    organizations.find((o) => attribute(o, "identifier") === wanted) ?? organizations[0]!;
  const organizationId = attribute(organization, "identifier") ?? "";

  const resourcesElement = childNamed(manifest, "resources");
  const resources = new Map(
    (resourcesElement ? childrenNamed(resourcesElement, "resource") : []).map((r) => [
      attribute(r, "identifier") ?? "",
      r,
    ]),
  );
  const bases = [
    attribute(manifest, "base"),
    resourcesElement && attribute(resourcesElement, "base"),
  ];

  const items: ScormItem[] = [];
  const seen = new Set<string>();
  function walk(element: XmlElement): ScormOutlineNode[] {
    const nodes: ScormOutlineNode[] = [];
    for (const item of childrenNamed(element, "item")) {
      const id = attribute(item, "identifier") ?? "";
      if (!id) throw invalidManifest(MANIFEST, "an item has no identifier.");
      if (id.length > PACKAGE_ITEM_ID_MAX) {
        throw invalidManifest(
          MANIFEST,
          `an item's identifier is longer than ${PACKAGE_ITEM_ID_MAX} characters.`,
        );
      }
      if (seen.has(id)) {
        throw invalidManifest(MANIFEST, `two items have the identifier "${id}".`);
      }
      seen.add(id);
      const title = childText(item, "title") ?? id;
      const isVisible = isTrue(attribute(item, "isvisible"), true);
      const ref = attribute(item, "identifierref");
      let launches = false;
      if (ref) {
        const resource = resources.get(ref);
        if (!resource) {
          throw invalidManifest(
            MANIFEST,
            `the item "${title}" refers to the resource "${ref}", which the manifest does not list.`,
          );
        }
        const href = attribute(resource, "href");
        if (!href?.trim()) {
          throw invalidManifest(
            MANIFEST,
            `the resource "${ref}" of the item "${title}" names no file to launch (no href).`,
          );
        }
        const target = resolveLaunch(href, [...bases, attribute(resource, "base")]);
        if (target.kind === "elsewhere") throw unsafePath(target.url);
        if (!files.has(target.file)) {
          throw launchMissing(
            `The item "${title}"`,
            target.file,
            sameNameOtherCase(files, target.file),
          );
        }
        const parameters = attribute(item, "parameters") ?? null;
        const scormType = (attribute(resource, "scormtype") ?? "sco").trim().toLowerCase();
        launches = true;
        items.push({
          id,
          title,
          launch: { file: target.file, query: joinParameters(target.suffix, parameters) },
          resourceId: ref,
          scormType: scormType === "asset" ? "asset" : "sco",
          parameters,
          isVisible,
          dataFromLms: childText(item, "datafromlms"),
          masteryScore: numberOrNull(childText(item, "masteryscore")),
          maxTimeAllowed: childText(item, "maxtimeallowed") ?? attemptLimitOf(item),
          timeLimitAction: childText(item, "timelimitaction"),
          prerequisites: childText(item, "prerequisites"),
          completionThreshold: completionThresholdOf(item),
          primaryObjective: primaryObjectiveOf(item),
        });
      }
      nodes.push({ id, title, launches, isVisible, children: walk(item) });
    }
    return nodes;
  }
  const outline = walk(organization);
  if (!items.length) throw nothingToLaunch(MANIFEST);

  return {
    standard,
    version,
    manifestId: attribute(manifest, "identifier") ?? null,
    organizationId,
    title: childText(organization, "title") ?? items[0]!.title,
    items,
    outline,
    objectivesGlobalToSystem: isTrue(attribute(organization, "objectivesGlobalToSystem"), true),
    sharedDataGlobalToSystem: isTrue(attribute(organization, "sharedDataGlobalToSystem"), true),
  };
}

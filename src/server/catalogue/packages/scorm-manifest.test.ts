import { describe, expect, it } from "vitest";
import { AppError } from "../../plugins/errors";
import { readScormManifest } from "./scorm-manifest";
import { parseXml } from "./xml-tree";

const FILES = new Set(["index.html", "lessons/one.html", "lessons/two.html", "quiz.html"]);

/** A manifest with the given metadata and organizations, and resources for the files. */
const manifest = ({
  namespaces = 'xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3" xmlns:imsss="http://www.imsglobal.org/xsd/imsss"',
  metadata = "<metadata><schema>ADL SCORM</schema><schemaversion>2004 4th Edition</schemaversion></metadata>",
  organizations,
  resources = `<resources xml:base="lessons/">
      <resource identifier="r1" type="webcontent" adlcp:scormType="sco" href="one.html?lang=en"/>
      <resource identifier="r2" type="webcontent" adlcp:scormType="asset" href="two.html"/>
    </resources>`,
}: {
  namespaces?: string;
  metadata?: string;
  organizations: string;
  resources?: string;
}) =>
  `<?xml version="1.0"?><manifest identifier="m" ${namespaces}>${metadata}${organizations}${resources}</manifest>`;

function refusal(xml: string, files = FILES): { code: string; message: string } {
  try {
    readScormManifest(parseXml(xml), files);
  } catch (err) {
    if (err instanceof AppError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error("the manifest was accepted");
}

const ORGS = `<organizations default="b">
  <organization identifier="a"><title>Not played</title>
    <item identifier="x" identifierref="r2"><title>X</title></item>
  </organization>
  <organization identifier="b" adlseq:objectivesGlobalToSystem="false" xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3">
    <title>  The   course </title>
    <item identifier="unit"><title>Unit 1</title>
      <item identifier="one" identifierref="r1" parameters="?page=2">
        <title>Lesson one</title>
        <adlcp:completionThreshold completedByMeasure="true" minProgressMeasure="0.8"/>
        <adlcp:dataFromLMS>start=1</adlcp:dataFromLMS>
        <imsss:sequencing>
          <imsss:limitConditions attemptAbsoluteDurationLimit="PT1H"/>
          <imsss:objectives>
            <imsss:primaryObjective objectiveID="pass" satisfiedByMeasure="true">
              <imsss:minNormalizedMeasure>0.75</imsss:minNormalizedMeasure>
            </imsss:primaryObjective>
          </imsss:objectives>
        </imsss:sequencing>
      </item>
      <item identifier="two" identifierref="r2" isvisible="false"><title>Lesson two</title></item>
    </item>
  </organization>
</organizations>`;

describe("a SCORM manifest", () => {
  it("gives the default organization's items with what the run time needs of each", () => {
    const description = readScormManifest(parseXml(manifest({ organizations: ORGS })), FILES);
    expect(description).toMatchObject({
      standard: "scorm2004",
      version: "2004 4th Edition",
      organizationId: "b",
      title: "The course",
      objectivesGlobalToSystem: false,
      sharedDataGlobalToSystem: true,
    });
    expect(description.items).toEqual([
      expect.objectContaining({
        id: "one",
        title: "Lesson one",
        // The resources' xml:base, the href's own query, then the item's parameters.
        launch: { file: "lessons/one.html", query: "?lang=en&page=2" },
        scormType: "sco",
        isVisible: true,
        dataFromLms: "start=1",
        completionThreshold: 0.8,
        maxTimeAllowed: "PT1H",
        primaryObjective: { id: "pass", satisfiedByMeasure: true, minNormalizedMeasure: 0.75 },
      }),
      expect.objectContaining({
        id: "two",
        launch: { file: "lessons/two.html", query: "" },
        scormType: "asset",
        isVisible: false,
      }),
    ]);
    expect(description.outline).toEqual([
      {
        id: "unit",
        title: "Unit 1",
        launches: false,
        isVisible: true,
        children: [
          { id: "one", title: "Lesson one", launches: true, isVisible: true, children: [] },
          { id: "two", title: "Lesson two", launches: true, isVisible: false, children: [] },
        ],
      },
    ]);
  });

  it("reads SCORM 1.2's item elements: mastery score, time limit, prerequisites", () => {
    const xml = manifest({
      namespaces:
        'xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"',
      metadata: "",
      organizations: `<organizations><organization identifier="o"><title>Old</title>
        <item identifier="q" identifierref="r"><title>Quiz</title>
          <adlcp:masteryscore>80</adlcp:masteryscore>
          <adlcp:maxtimeallowed>00:30:00</adlcp:maxtimeallowed>
          <adlcp:timelimitaction>exit,message</adlcp:timelimitaction>
          <adlcp:prerequisites type="aicc_script">intro</adlcp:prerequisites>
        </item></organization></organizations>`,
      resources: `<resources><resource identifier="r" adlcp:scormtype="sco" href="quiz.html"/></resources>`,
    });
    // No schemaversion: the SCORM 1.2 namespace says which.
    const description = readScormManifest(parseXml(xml), FILES);
    expect(description).toMatchObject({ standard: "scorm12", version: "1.2" });
    expect(description.items[0]).toMatchObject({
      masteryScore: 80,
      maxTimeAllowed: "00:30:00",
      timeLimitAction: "exit,message",
      prerequisites: "intro",
      launch: { file: "quiz.html", query: "" },
    });
  });

  it("knows SCORM 1.2 and 2004 3rd and 4th editions, and refuses another version, naming it", () => {
    for (const [stated, standard] of [
      ["1.2", "scorm12"],
      ["CAM 1.3", "scorm2004"],
      ["2004 3rd Edition", "scorm2004"],
      ["2004 4th edition", "scorm2004"],
    ]) {
      const xml = manifest({
        metadata: `<metadata><schemaversion>${stated}</schemaversion></metadata>`,
        organizations: ORGS,
      });
      expect(readScormManifest(parseXml(xml), FILES).standard, stated).toBe(standard);
    }
    const unknown = refusal(
      manifest({
        metadata: "<metadata><schemaversion>1.1</schemaversion></metadata>",
        organizations: ORGS,
      }),
    );
    expect(unknown.code).toBe("modules.package_unknown_version");
    expect(unknown.message).toContain('"1.1"');
    const unsaid = refusal(
      manifest({
        namespaces: 'xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"',
        metadata: "",
        organizations: ORGS,
      }),
    );
    expect(unsaid.code).toBe("modules.package_unknown_version");
    expect(unsaid.message).toMatch(/does not say which SCORM version/);
  });

  it("refuses each fault with its own code", () => {
    const cases: [string, string, string][] = [
      ["<?xml version='1.0'?>", "modules.package_nothing_to_launch", "an empty manifest"],
      ["<manifest><organizations>", "modules.package_invalid_manifest", "not XML"],
      ["<package/>", "modules.package_invalid_manifest", "another top element"],
      [manifest({ organizations: "<organizations/>" }), "modules.package_no_organization", "none"],
      [
        manifest({
          organizations: `<organizations><organization identifier="o"><title>T</title>
            <item identifier="i"><title>Only a heading</title></item></organization></organizations>`,
        }),
        "modules.package_nothing_to_launch",
        "no item launches",
      ],
      [
        manifest({
          organizations: `<organizations><organization identifier="o"><title>T</title>
            <item identifier="i" identifierref="nowhere"><title>I</title></item></organization></organizations>`,
        }),
        "modules.package_invalid_manifest",
        "an unknown resource",
      ],
      [
        manifest({
          organizations: ORGS,
          resources: `<resources><resource identifier="r1" href="missing.html"/><resource identifier="r2" href="quiz.html"/></resources>`,
        }),
        "modules.package_launch_missing",
        "a missing launch file",
      ],
      [
        manifest({
          organizations: ORGS,
          resources: `<resources xml:base="../"><resource identifier="r1" href="index.html"/><resource identifier="r2" href="quiz.html"/></resources>`,
        }),
        "modules.package_unsafe_path",
        "a base that leaves the package",
      ],
      [
        manifest({
          organizations: `<organizations><organization identifier="o"><title>T</title>
            <item identifier="${"i".repeat(256)}" identifierref="r1"><title>I</title></item></organization></organizations>`,
        }),
        "modules.package_invalid_manifest",
        "an item identifier longer than the player's address carries",
      ],
    ];
    for (const [xml, code, label] of cases) expect(refusal(xml).code, label).toBe(code);
  });
});

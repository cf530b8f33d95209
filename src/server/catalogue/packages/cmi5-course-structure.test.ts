import { describe, expect, it } from "vitest";
import { AppError } from "../../plugins/errors";
import { ltsCourseStructure } from "../../testing/zips";
import { readCmi5CourseStructure } from "./cmi5-course-structure";
import { decodeXml, parseXml } from "./xml-tree";

const read = (xml: string, files: Set<string>) => readCmi5CourseStructure(parseXml(xml), files);
function refusal(xml: string, files = new Set(["index.html"])) {
  try {
    read(xml, files);
  } catch (err) {
    if (err instanceof AppError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error("the course structure was accepted");
}
const lts = (name: string) => decodeXml(ltsCourseStructure(name));

describe("a cmi5 course structure", () => {
  it("gives the AUs in order, inside their blocks, with what the LMS decides by", () => {
    const xml = `<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
      <course id="https://example.com/c"><title><langstring lang="en">Course</langstring></title>
        <description><langstring lang="en">About it</langstring></description></course>
      <objectives><objective id="https://example.com/o"><title><langstring>Goal</langstring></title>
        <description><langstring>To know</langstring></description></objective></objectives>
      <au id="https://example.com/au/1" moveOn="Completed" masteryScore="0.6" launchMethod="OwnWindow" activityType="http://adlnet.gov/expapi/activities/lesson">
        <title><langstring>First</langstring></title><description><langstring>One</langstring></description>
        <objectives><objective idref="https://example.com/o"/></objectives>
        <url>index.html?unit=1</url><launchParameters>{"a":1}</launchParameters>
        <entitlementKey>key</entitlementKey>
      </au>
      <block id="https://example.com/b"><title><langstring>Block</langstring></title>
        <description><langstring>Two</langstring></description>
        <au id="https://example.com/au/2"><title><langstring>Elsewhere</langstring></title>
          <description><langstring>Hosted</langstring></description><url>https://content.example.com/au2?x=1</url></au>
      </block>
    </courseStructure>`;
    const description = read(xml, new Set(["index.html"]));
    expect(description).toMatchObject({
      standard: "cmi5",
      courseId: "https://example.com/c",
      title: "Course",
      description: "About it",
      objectives: [{ id: "https://example.com/o", title: "Goal", description: "To know" }],
      blocks: [{ id: "https://example.com/b", title: "Block", parent: null, objectives: [] }],
    });
    expect(description.items).toEqual([
      {
        id: "https://example.com/au/1",
        title: "First",
        description: "One",
        launch: { file: "index.html", query: "?unit=1" },
        moveOn: "Completed",
        masteryScore: 0.6,
        launchMethod: "OwnWindow",
        launchParameters: '{"a":1}',
        entitlementKey: "key",
        activityType: "http://adlnet.gov/expapi/activities/lesson",
        objectives: ["https://example.com/o"],
        blocks: [],
      },
      expect.objectContaining({
        id: "https://example.com/au/2",
        launch: { url: "https://content.example.com/au2?x=1" },
        // cmi5's defaults.
        moveOn: "NotApplicable",
        masteryScore: null,
        launchMethod: "AnyWindow",
        blocks: ["https://example.com/b"],
      }),
    ]);
  });

  it("accepts ADL's test course of a thousand AUs hosted elsewhere", () => {
    expect(read(lts("101-one-thousand-aus.xml"), new Set()).items).toHaveLength(1001);
  });

  it("refuses every invalid course structure of ADL's LMS test suite", () => {
    const index = new Set(["index.html"]);
    const cases: [string, string, RegExp][] = [
      ["201-1-iris-course-id.xml", "modules.package_invalid_manifest", /course .*not an IRI/],
      ["201-2-iris-block-id.xml", "modules.package_invalid_manifest", /block .*not an IRI/],
      ["201-3-iris-au-id.xml", "modules.package_invalid_manifest", /AU .*not an IRI/],
      ["201-4-iris-objective-id.xml", "modules.package_invalid_manifest", /objective .*not an IRI/],
      ["202-1-relative-url-no-zip.xml", "modules.package_launch_missing", /"index\.html"/],
      ["202-5-relative-url-no-zip.xml", "modules.package_unsafe_path", /"\/index\.html"/],
      ["204-query-string-conflict-endpoint.xml", "modules.package_invalid_manifest", /"endpoint"/],
      ["205-1-duplicated-block.xml", "modules.package_invalid_manifest", /named twice/],
      ["205-2-duplicated-objective.xml", "modules.package_invalid_manifest", /named twice/],
      ["205-3-duplicated-au.xml", "modules.package_invalid_manifest", /named twice/],
      ["206-1-invalid-au-url.xml", "modules.package_invalid_manifest", /not a valid address/],
      [
        "207-1-invalid-courseStructure.xml",
        "modules.package_invalid_manifest",
        /<title> comes after <url>/,
      ],
    ];
    for (const [name, code, words] of cases) {
      // A course structure imported without its package has no files for relative urls.
      const found = refusal(lts(name), name.startsWith("202-") ? new Set() : index);
      expect(found.code, name).toBe(code);
      expect(found.message, name).toMatch(words);
    }
    expect(refusal(lts("203-1-relative-url-no-reference/cmi5.xml")).code).toBe(
      "modules.package_launch_missing",
    );
  });

  it("refuses values cmi5 does not define", () => {
    const au = (attributes: string, url = "index.html") =>
      `<courseStructure><course id="https://e.com/c"><title><langstring>C</langstring></title><description/></course>
        <au id="https://e.com/a" ${attributes}><title><langstring>A</langstring></title><description/><url>${url}</url></au></courseStructure>`;
    expect(refusal(au('moveOn="Finished"')).message).toMatch(/moveOn "Finished"/);
    expect(refusal(au('launchMethod="Popup"')).message).toMatch(/launchMethod "Popup"/);
    expect(refusal(au('masteryScore="80"')).message).toMatch(/from 0 to 1/);
    expect(refusal(au("", "ftp://e.com/a")).message).toMatch(/web address/);
    expect(refusal("<courseStructure/>").message).toMatch(/exactly one <course>/);
    expect(refusal("").code).toBe("modules.package_nothing_to_launch");
  });
});

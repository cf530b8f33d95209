import { ADMIN_KEY, expect, expectToast, test, uniqueEmail } from "./support/fixtures";
import { screen, screensAtBothWidths } from "./support/screens";

test.describe("Administrator setup", () => {
  test("an admin creates their account from the sign-in screen and lands on /admin", async ({
    page,
  }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Credo");
    await expect(page.getByText("Sign in to your learning portal")).toBeVisible();
    await screen(page, "sign-in");

    await page.getByRole("button", { name: "Administrator setup" }).click();
    const dialog = page.getByRole("dialog", { name: "Administrator setup" });
    await expect(dialog).toBeVisible();

    // Inline validation before anything is sent.
    await dialog.getByRole("button", { name: "Create admin account" }).click();
    await expect(dialog.getByText("Admin key is required")).toBeVisible();

    const email = uniqueEmail("owner");
    await dialog.getByLabel("Email address").fill(email);
    await dialog.getByLabel("Full name").fill("Olivia Owner");
    await dialog.getByLabel("Password", { exact: true }).fill("owner-pass-1");
    await dialog.getByLabel("Confirm password", { exact: true }).fill("owner-pass-1");
    await dialog.getByLabel("Admin key", { exact: true }).fill("not-the-key");
    await screen(page, "admin-setup-dialog");

    // A wrong key is refused with the server's reason.
    await dialog.getByRole("button", { name: "Create admin account" }).click();
    await expectToast(page, "Admin setup failed", "Invalid admin key.");
    await expect(dialog).toBeVisible();

    await dialog.getByLabel("Admin key", { exact: true }).fill(ADMIN_KEY);
    await dialog.getByRole("button", { name: "Create admin account" }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expectToast(page, "Admin account created successfully!");
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Admin" })).toBeVisible();
    await expect(page).toHaveTitle("Dashboard · Credo");
    await screen(page, "admin-dashboard");

    // A new portal's first steps, each ticked by the server: nobody has named the
    // organisation yet (the specs that do so run alone, afterwards).
    const checklist = page.getByRole("region", { name: "Get your portal ready" });
    const profileStep = checklist.getByRole("link", {
      name: /^Set up your organisation profile \(to do\)/,
    });
    await expect(profileStep).toHaveAttribute("href", "/admin/settings");
    await expect(
      checklist.getByRole("link", { name: /Build your credit catalogue/ }),
    ).toBeVisible();
    await expect(checklist.getByRole("link", { name: /Publish your first course/ })).toBeVisible();
    await screensAtBothWidths(page, "admin-setup-checklist");
    // Put away from the keyboard, for this administrator, for good.
    const dismiss = checklist.getByRole("button", { name: "Dismiss the setup checklist" });
    await dismiss.focus();
    await page.keyboard.press("Enter");
    await expect(checklist).toBeHidden();
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Overview" })).toBeVisible();
    await expect(checklist).toBeHidden();

    // While signed in as this admin, register a learner through the API.
    const learnerEmail = uniqueEmail("invitee");
    const res = await page.request.post("/api/auth/register", {
      data: { email: learnerEmail, name: "Ivy Invitee", phone: "+1 555 0100" },
    });
    expect(res.status(), await res.text()).toBe(201);
    const learner = await res.json();
    expect(learner).toMatchObject({
      email: learnerEmail,
      role: "learner",
      isRegisteredByAdmin: true,
      passwordSetup: false,
    });
  });

  test("every admin section renders inside the admin layout", async ({ page, admin }) => {
    await page.goto("/");
    await page.getByLabel("Email address").fill(admin.email);
    await page.getByLabel("Password", { exact: true }).fill(admin.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/admin$/);

    const nav = page.getByRole("navigation", { name: "Admin" });
    const sections = [
      { link: "Courses", url: /\/admin\/courses$/, heading: "Courses" },
      { link: "Learners", url: /\/admin\/learners$/, heading: "Learners" },
      { link: "Reports", url: /\/admin\/reports$/, heading: "Reports" },
      { link: "Dashboard", url: /\/admin$/, heading: "Dashboard" },
    ];
    for (const section of sections) {
      await nav.getByRole("link", { name: section.link }).click();
      await expect(page).toHaveURL(section.url);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(section.heading);
      await expect(nav.getByRole("link", { name: section.link })).toHaveAttribute(
        "aria-current",
        "page",
      );
    }

    // 'Create Course' in the sidebar opens the Create Course dialog.
    await nav.getByRole("button", { name: "Create Course" }).click();
    await expect(page.getByRole("dialog", { name: "Create Course" })).toBeVisible();
    await page.keyboard.press("Escape");

    await page.goto("/admin/courses/some-course-id");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Course not found");
  });
});

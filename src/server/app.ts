import { fileURLToPath } from "node:url";
import fastifyCookie from "@fastify/cookie";
import fastifyRateLimit from "@fastify/rate-limit";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import fastifyUnderPressure from "@fastify/under-pressure";
import Fastify, { type FastifyServerOptions, LogController } from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { Redis } from "ioredis";
import { MESSAGES, PACKAGE_ITEM_ID_MAX } from "../contract";
import {
  createLearnersImportService,
  createLearnersService,
  createMailJobs,
  createRemindersService,
  createReportsService,
  createSetupChecklistService,
  registerLearnersRoutes,
  registerRemindersRoutes,
  registerReportsRoutes,
  registerSetupChecklistRoutes,
} from "./administration";
import {
  createCaptionsService,
  createCoursesService,
  createCreditCatalogueService,
  createPackagesService,
  createPackagesSweeper,
  registerCaptionsRoutes,
  registerCoursesRoutes,
  registerCreditCatalogueRoutes,
  registerPackageFilesRoutes,
} from "./catalogue";
import { type Config, resolveSecretsKey } from "./config";
import {
  acknowledgeStep,
  attestationStep,
  createAccreditationService,
  createActivityService,
  createAttestationsService,
  createCertificateAssets,
  createCertificateMailsService,
  createCertificatesService,
  createCpeMonitorRetries,
  createCredentialsService,
  createCreditService,
  createEvaluationsService,
  createFormStepsService,
  createIdentifiersService,
  createPdfRenderer,
  createReportingService,
  creditCertificateStep,
  evaluationStep,
  formSteps,
  registerAccreditationRoutes,
  registerActivityRoutes,
  registerAttestationsRoutes,
  registerCertificatesRoutes,
  registerCredentialsRoutes,
  registerCreditRoutes,
  registerEvaluationsRoutes,
  registerFormStepsRoutes,
  registerIdentifiersRoutes,
  registerReportingRoutes,
} from "./credit";
import type { DatabaseHandle } from "./db/client";
import { createIdentityService, type IdentityService } from "./identity/firebase-identity";
import {
  createCmi5Service,
  createEnrollmentMailsService,
  createEnrollmentsService,
  createExamResults,
  createExamService,
  createObjectAccess,
  createPackageAttempts,
  createPackageProgressService,
  createPackageRunsService,
  createQuestionsService,
  createReviewService,
  createWatchingService,
  examStep,
  packageCompletionStep,
  registerAssessmentsRoutes,
  registerCmi5LaunchRoutes,
  registerCmi5Routes,
  registerEnrollmentsRoutes,
  registerPackageProgressRoutes,
  registerPackageRunsRoutes,
  registerScormRuntimeRoutes,
  registerWatchingRoutes,
  reviewStep,
  watchingStep,
} from "./learning";
import { createEvents } from "./lib/events";
import { whenClosing, whenReady } from "./lib/lifecycle";
import { createSecretBox } from "./lib/secret-box";
import { createMailer } from "./mail/create-mailer";
import type { Mailer } from "./mail/mailer";
import { documentRoute, openapiOptions } from "./openapi/document";
import {
  createAuthService,
  createFactors,
  createIdentityProvidersService,
  createLoginThrottle,
  createOidcProtocol,
  createOwnSessions,
  createPasskeys,
  createPasswordHasher,
  createSamlProtocol,
  createSecondFactorService,
  createSecondStepService,
  createSessionsService,
  createSignInGate,
  createSignOnService,
  type PasswordHasher,
  registerAuthRoutes,
  registerOidcRoutes,
  registerOwnSessionsRoutes,
  registerSamlRoutes,
  registerSecondFactorRoutes,
  registerSecondStepRoutes,
  registerSignOnRoutes,
  relyingPartyOf,
} from "./people";
import {
  createAuditService,
  createContentApp,
  createContentLinks,
  createObjectsService,
  createOrganisationService,
  registerAuditRoutes,
  registerObjectsRoutes,
  registerOrganisationRoutes,
  registerSystemRoutes,
} from "./platform";
import { registerCsrfGuard } from "./plugins/csrf";
import { frameworkErrors, registerErrorHandler } from "./plugins/errors";
import { registerExpensiveAnswers } from "./plugins/expensive-answers";
import { registerHostGuard } from "./plugins/host-guard";
import { registerIdempotency } from "./plugins/idempotency";
import { registerInputGuard } from "./plugins/input-guard";
import { registerNoStore } from "./plugins/no-store";
import { pgRateLimitStore } from "./plugins/rate-limit-store";
import { registerRequestLog } from "./plugins/request-log";
import { registerSecurityEvents, safeLoggerOptions } from "./plugins/security-events";
import {
  apiDocsContentSecurityPolicy,
  contentSecurityPolicy,
  registerSecurityHeaders,
} from "./plugins/security-headers";
import { registerSessions } from "./plugins/sessions";
import { registerSlowBodyGuard } from "./plugins/slow-body-guard";
import { registerStaticClient } from "./plugins/static-client";
import { createObjectStore } from "./storage/create-object-store";

export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  adminSetupKey: { key: string | undefined; generated: boolean };
  /** Where the built web client lives (dist/web by default). */
  webRoot?: string;
  logger?: FastifyServerOptions["logger"];
  /** Answer 503 when the event loop lags (default: outside NODE_ENV=test). */
  shedLoad?: boolean;
  /** Production scrypt cost by default; the test harness passes a cheaper one. */
  passwords?: PasswordHasher;
  /** Defaults to SMTP (SMTP_URL) or the outbox in DATA_DIR. */
  mailer?: Mailer;
  /** Defaults to Firebase Auth when FIREBASE_PROJECT_ID is set, else the not-configured one. */
  identity?: IdentityService;
  /**
   * The one clock of the credit rules: watch credit's pace, exam deadlines, activity expiry
   * and enrollment validity, reminders. The system's by default; tests pass one they move.
   */
  clock?: () => Date;
}

/**
 * Every step of completion, each from its own feature; the contract's COMPLETION_STEPS puts
 * them in order (ARCHITECTURE section 6).
 */
export const completionSteps = [
  acknowledgeStep,
  packageCompletionStep,
  watchingStep,
  reviewStep,
  examStep,
  evaluationStep,
  ...formSteps,
  attestationStep,
  creditCertificateStep,
];

const defaultWebRoot = fileURLToPath(new URL("../../dist/web", import.meta.url));

/** JSON bodies are small; uploads stream through their own route with their own limit. */
const JSON_BODY_LIMIT = 256 * 1024;
/** The longest path parameter, percent-encoded: a package item's identifier at most. */
const MAX_ENCODED_PARAM = PACKAGE_ITEM_ID_MAX * 9;

/**
 * Builds the whole HTTP application without listening, so tests can use `app.inject`.
 * External plugins first, then the app's own, then every feature's routes in order.
 */
export async function buildApp(deps: AppDeps) {
  const { config, database } = deps;
  const app = Fastify({
    logger: safeLoggerOptions(deps.logger ?? { level: config.logLevel }),
    trustProxy: config.trustProxy,
    bodyLimit: JSON_BODY_LIMIT,
    // Timeouts against slow clients (docs/deploy.md). Headers must arrive within 30 s,
    // checked every 5 s (Node's default check every 30 s would allow up to a minute).
    // A body must keep arriving (registerSlowBodyGuard); a whole request may take an hour
    // (a 500 MB upload). Idle keep-alive connections close after 72 s, longer than a load
    // balancer's usual 60 s, so the balancer never reuses one this server is closing.
    http: { headersTimeout: 30_000, connectionsCheckingInterval: 5_000 },
    connectionTimeout: 0,
    requestTimeout: 60 * 60 * 1000,
    keepAliveTimeout: 72_000,
    return503OnClosing: true,
    logController: new LogController({ disableRequestLogging: true }),
    ajv: { customOptions: { coerceTypes: false } },
    // A path parameter may carry a package item's identifier (up to 255 characters, each at
    // most 9 once percent-encoded); each route's schema bounds its own parameters.
    routerOptions: { maxParamLength: MAX_ENCODED_PARAM },
    frameworkErrors,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerRequestLog(app, { production: config.production });
  registerSlowBodyGuard(app);

  // External plugins.
  registerSecurityHeaders(app, {
    contentSecurityPolicy: { directives: contentSecurityPolicy(config) },
    crossOriginEmbedderPolicy: false,
    hsts: config.production,
  });
  await app.register(fastifyCookie);
  // Shed load with 503 + Retry-After instead of queueing until every request times out.
  // Not under test: there the event loop is shared with in-process PGlite and the runner,
  // and a busy test machine would shed the test's own requests.
  //
  // Only the event loop's lag says that requests wait. Its utilisation does not: a thread
  // busy all the time may still answer each request in milliseconds, and the plugin counts
  // utilisation since start, so a start-up that kept the thread busy would refuse the first
  // sign-ins after a deploy.
  if ((deps.shedLoad ?? config.env !== "test") && config.maxEventLoopDelayMs > 0) {
    await app.register(fastifyUnderPressure, {
      maxEventLoopDelay: config.maxEventLoopDelayMs,
      retryAfter: 10,
      message: MESSAGES.unavailable,
      exposeStatusRoute: false,
    });
  }
  // Counters shared by every instance: Redis when REDIS_URL is set, else PostgreSQL.
  const redis = config.redisUrl ? new Redis(config.redisUrl, { lazyConnect: false }) : undefined;
  if (redis) whenClosing(app, redis, "disconnect");
  const rateLimitStore = redis ? { redis } : { store: pgRateLimitStore(database.db) };
  await app.register(fastifyRateLimit, { global: false, ...rateLimitStore });
  await app.register(fastifySwagger, openapiOptions({ productName: config.productName }));
  // Before any route: each route's document gains the answers every route of its kind gives.
  app.addHook("onRoute", documentRoute);
  await app.register(fastifySwaggerUi, {
    routePrefix: "/api/docs",
    staticCSP: true,
    transformStaticCSP: (header) => apiDocsContentSecurityPolicy(header, config),
  });

  // Services, in the contexts' order (docs/architecture.md): each is given the services
  // before it, whole; a lower context hears of a higher one only through events.
  const { db } = database;
  const { clock } = deps;
  // What one feature tells the others, in the transaction of the change (lib/events.ts).
  const events = createEvents();
  const sessions = createSessionsService({ db, changes: database.changes });
  whenClosing(app, sessions, "close");
  const mailer = deps.mailer ?? createMailer(config, app.log);
  whenClosing(app, mailer, "close");
  const identity = deps.identity ?? (await createIdentityService(config.firebase));
  whenClosing(app, identity, "close");
  if (config.firebase?.emulatorHost) {
    app.log.warn({ host: config.firebase.emulatorHost }, "using the Firebase Auth emulator");
  }
  const store = createObjectStore(config);
  const objects = createObjectsService({ db, store });
  // Package content runs on its own origin, served by a server of its own (SECURITY.md).
  const content = createContentApp({
    contentOrigin: config.contentOrigin,
    portalOrigin: config.publicOrigin,
    production: config.production,
    log: app.log,
  });
  app.decorate("content", content);
  whenClosing(app, content, "close");
  const contentLinks = createContentLinks({ db, contentOrigin: config.contentOrigin });
  // The issuer of certificates, transcripts and mails.
  const organisation = createOrganisationService({
    db,
    objects,
    productName: config.productName,
    changes: database.changes,
  });

  // People. An administrator's sign-in may wait for a second factor before its session.
  const throttle = createLoginThrottle({ db });
  const passwords = deps.passwords ?? createPasswordHasher();
  const now = clock ?? (() => new Date());
  const handOver = createSignInGate({ db, secureCookies: config.production, now });
  const auth = createAuthService({
    db,
    sessions,
    throttle,
    passwords,
    passwordSetupMode: config.passwordSetupMode,
    adminSetupKey: deps.adminSetupKey.key,
    adminSetupKeyIsOneTime: deps.adminSetupKey.key !== undefined && !config.adminSetupKey,
    mailer,
    issuer: organisation,
    publicUrl: config.publicUrl,
    log: app.log,
    identity,
    handOver,
  });

  // Platform: the audit trail, written in the transactions of the changes it records.
  // Appends are linked into the hash chain in the background; stop before the database closes.
  const audit = createAuditService({ db, log: app.log });
  audit.start();
  whenClosing(app, audit, "stop");
  // Secrets the portal keeps (authenticator-app seeds, identity providers' client secrets and
  // keys) are sealed with SECRETS_KEY.
  const secretsKey = resolveSecretsKey(config);
  const box = secretsKey ? createSecretBox(secretsKey) : undefined;
  // Administrators' second factors, audited.
  const factors = createFactors({
    db,
    passkeys: createPasskeys(
      relyingPartyOf({
        publicUrl: config.publicUrl,
        production: config.production,
        name: config.productName,
      }),
    ),
    secrets: box,
    audit,
    productName: config.productName,
    now,
  });

  // Single sign-on through the organisation's identity providers. It belongs to people, and
  // records its sign-ons in the audit trail.
  const oidc = createOidcProtocol({ publicUrl: config.publicUrl, production: config.production });
  const saml = createSamlProtocol({
    db,
    publicUrl: config.publicUrl,
    production: config.production,
    now: clock,
  });
  const signOnProtocols = [oidc, saml];
  const identityProviders = createIdentityProvidersService({
    db,
    audit,
    box,
    protocols: signOnProtocols,
    publicUrl: config.publicUrl,
  });
  const signOn = createSignOnService({
    db,
    auth,
    sessions,
    audit,
    providers: identityProviders,
    protocols: signOnProtocols,
    box,
    secureCookies: config.production,
    now: clock,
  });

  // Catalogue.
  const creditCatalogue = createCreditCatalogueService({
    db,
    events,
    audit,
    changes: database.changes,
  });
  const packages = createPackagesService({ db, store, objects, log: app.log });
  const courses = createCoursesService({
    db,
    objects,
    events,
    changes: database.changes,
    audit,
    creditCatalogue,
    packages,
  });
  // Packages whose unpacking the end of an earlier process cut off are removed hourly.
  const packagesSweeper = createPackagesSweeper({ db, store, log: app.log });
  whenReady(app, packagesSweeper, "start");
  whenClosing(app, packagesSweeper, "stop");

  // Learning: enrollments own completion, through the one gate, with every step of it.
  const enrollments = createEnrollmentsService({
    db,
    courses,
    users: auth,
    audit,
    steps: completionSteps,
    changes: database.changes,
    now: clock,
    events,
  });
  // Course edits that change what completes a course may have left learners behind when
  // the portal last stopped: their recomputes finish at start.
  whenReady(app, enrollments, "resumeRecomputes");
  const questions = createQuestionsService({ db, courses, audit, events });
  const watching = createWatchingService({ db, courses, enrollments, users: auth, now: clock });
  // The portal as the LMS of cmi5 modules: launches on the portal, xAPI on the content origin.
  const cmi5 = createCmi5Service({
    db,
    courses,
    packages,
    enrollments,
    attempts: createPackageAttempts(),
    portalOrigin: config.publicOrigin,
    contentOrigin: config.contentOrigin,
    packageBase: contentLinks.packageBase,
    now: clock,
    log: app.log,
  });
  // Administrators' view of the learners' attempts at package modules, and their resets.
  const packageProgress = createPackageProgressService({
    db,
    courses,
    enrollments,
    users: auth,
    audit,
  });

  // Credit: the activity page holds the course's activity row and the unit of a credit step,
  // which the evaluation, the attestation and the credit settings go through. The learner's
  // one record of identifiers is read by the certificate and the reporting, and saved from
  // the profile and the attestation.
  const identifiers = createIdentifiersService({ db, enrollments });
  const reporting = createReportingService({
    db,
    courses,
    enrollments,
    audit,
    organisation,
    now: clock,
    events,
    identifiers,
    // Regulators' credentials are sealed in the same box.
    secrets: box,
  });
  // Completions CPE Monitor's service could not take are sent again on a timer.
  const cpeMonitorRetries = createCpeMonitorRetries({ reporting, log: app.log });
  app.decorate("cpeMonitorRetries", cpeMonitorRetries);
  whenReady(app, cpeMonitorRetries, "start");
  whenClosing(app, cpeMonitorRetries, "stop");
  const activity = createActivityService({
    db,
    courses,
    users: auth,
    enrollments,
    now: clock,
    audit,
    events,
  });
  const evaluations = createEvaluationsService({ db, activity, now: clock });
  const formStepsService = createFormStepsService({ db, activity, now: clock });
  const attestations = createAttestationsService({
    events,
    activity,
    organisation,
    identifiers,
    now: clock,
    regulators: reporting,
  });
  const credit = createCreditService({ db, activity, events });
  // The activity page, composed of the activity's, the evaluation's, the attestation's and the
  // credit settings' parts, each kept by its own feature.
  const accreditation = createAccreditationService({
    db,
    activity,
    evaluations,
    attestations,
  });
  const certificates = createCertificatesService({
    db,
    audit,
    organisation,
    publicUrl: config.publicUrl,
    enrollments,
    users: auth,
    events,
  });
  const pdfs = createPdfRenderer();
  const certificateAssets = createCertificateAssets({ signatures: credit, organisation });
  // Every certificate is also an Open Badges credential, signed with the issuer's key, which
  // is made at first start when the database has none (docs/credentials.md).
  const credentials = createCredentialsService({
    db,
    publicUrl: config.publicUrl,
    certificates,
    courseImages: courses,
  });
  whenReady(app, credentials, "ensureSigningKey");

  // Administration. Mail after commit: each certificate's email and each administrator's
  // enrollment's (queued with them) and the learner reminders, swept on a timer; stopped
  // before the PDF threads and the database close.
  const certificateMails = createCertificateMailsService({
    db,
    mailer,
    issuer: organisation,
    certificates,
    pdfs,
    assetsOf: certificateAssets,
    changes: database.changes,
    log: app.log,
  });
  const enrollmentMails = createEnrollmentMailsService({
    db,
    mailer,
    issuer: organisation,
    courses,
    users: auth,
    publicUrl: config.publicUrl,
    changes: database.changes,
    log: app.log,
    now: clock,
  });
  const reminders = createRemindersService({
    db,
    mailer,
    issuer: organisation,
    publicUrl: config.publicUrl,
    activity,
    log: app.log,
    now: clock,
    // The administrators' weekly digest of claims waiting past a regulator's deadline.
    reportingDigest: reporting,
  });
  const mailJobs = createMailJobs({
    certificateMails,
    enrollmentMails,
    reminders,
    intervalMs: config.reminderIntervalMinutes * 60_000,
    log: app.log,
  });
  app.decorate("mailJobs", mailJobs);
  whenReady(app, mailJobs, "start");
  whenClosing(app, mailJobs, "stop");
  whenClosing(app, pdfs, "close");

  // App plugins.
  registerHostGuard(app, { publicUrl: config.publicUrl, production: config.production });
  registerCsrfGuard(app, { publicOrigin: config.publicOrigin });
  registerSessions(app, { resolve: sessions.resolve, secureCookies: config.production });
  registerInputGuard(app);
  registerExpensiveAnswers(app);
  registerIdempotency(app, { db });
  registerNoStore(app);
  registerSecurityEvents(app);

  // Routes, in one visible list.
  registerSystemRoutes(app, {
    ping: database.ping,
    publicConfig: {
      productName: config.productName,
      passwordSetupMode: config.passwordSetupMode,
      firebase: config.firebase ?? null,
    },
  });
  registerAuthRoutes(app, { auth, secureCookies: config.production, singleLogout: signOn });
  registerOwnSessionsRoutes(app, { ownSessions: createOwnSessions({ db, sessions, handOver }) });
  registerSignOnRoutes(app, { signOn, providers: identityProviders });
  registerOidcRoutes(app, { signOn, oidc });
  registerSecondStepRoutes(app, {
    secondStep: createSecondStepService({ db, factors, throttle, audit, auth, now }),
    secureCookies: config.production,
  });
  registerSecondFactorRoutes(app, {
    secondFactor: createSecondFactorService({ db, factors, throttle, passwords, audit, now }),
  });
  registerSamlRoutes(app, { signOn, saml, providers: identityProviders });
  registerCoursesRoutes(app, { courses, enrolled: enrollments });
  registerCreditCatalogueRoutes(app, { creditCatalogue });
  const learners = createLearnersService({ db, changes: database.changes });
  whenReady(app, learners, "prepareSearch");
  registerLearnersRoutes(app, {
    learners,
    auth,
    audit,
    learnersImport: createLearnersImportService({
      db,
      courses,
      enrollments,
      accounts: auth.learnerAccounts,
      mailer,
      issuer: organisation,
      publicUrl: config.publicUrl,
      log: app.log,
    }),
  });
  registerEnrollmentsRoutes(app, { enrollments });
  registerWatchingRoutes(app, { watching });
  registerCmi5LaunchRoutes(app, { cmi5 });
  registerPackageProgressRoutes(app, { packageProgress });
  registerPackageRunsRoutes(app, {
    packageRuns: createPackageRunsService({
      db,
      courses,
      packages,
      enrollments,
      links: contentLinks,
      contentOrigin: config.contentOrigin,
      now: clock,
    }),
  });
  registerCaptionsRoutes(app, {
    captions: createCaptionsService({ db, courses, enrollments }),
  });
  registerAssessmentsRoutes(app, {
    questions,
    review: createReviewService({ db, courses, enrollments }),
    exam: createExamService({ db, enrollments, now: clock }),
    results: createExamResults({ db, courses }),
  });
  registerActivityRoutes(app, { activity });
  registerAccreditationRoutes(app, { accreditation });
  registerEvaluationsRoutes(app, { evaluations });
  registerFormStepsRoutes(app, { formSteps: formStepsService });
  registerAttestationsRoutes(app, { attestations });
  registerCreditRoutes(app, { credit, activity, certificates });
  registerIdentifiersRoutes(app, { identifiers });
  registerReportingRoutes(app, { reporting });
  registerReportsRoutes(app, {
    reports: createReportsService({ db }),
    watching,
    packages: packageProgress,
  });
  registerSetupChecklistRoutes(app, {
    setupChecklist: createSetupChecklistService({ db, organisation, creditCatalogue }),
  });
  registerCertificatesRoutes(app, {
    certificates,
    pdfs,
    assetsOf: certificateAssets,
    organisation,
  });
  registerCredentialsRoutes(app, { credentials, publicUrl: config.publicUrl });
  registerRemindersRoutes(app, { reminders });
  registerOrganisationRoutes(app, { organisation });
  registerAuditRoutes(app, { audit, names: { users: auth, courses } });
  registerObjectsRoutes(app, {
    objects,
    access: createObjectAccess({ courses, enrollments }),
    courseImages: courses,
  });

  registerPackageFilesRoutes(content, { links: contentLinks, store });
  registerScormRuntimeRoutes(content, { portalOrigin: config.publicOrigin });
  registerCmi5Routes(content, { cmi5, rateLimitStore });

  await registerStaticClient(app, { root: deps.webRoot ?? defaultWebRoot });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;

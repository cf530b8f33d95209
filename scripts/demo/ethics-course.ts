import type { DemoCourse } from "./demo-course";

/**
 * An accredited self-study course that uses review questions and a final exam, written to
 * pass the NASBA publish checks without a warning: 1 credit, at least 3 review questions
 * and 5 final-exam questions per credit, no true/false question in the final pool, a 70%
 * pass mark, and fields of study that add up to the credit. Three modules of 50 minutes in
 * all make one CPE credit (NASBA's hour is 50 minutes).
 */
export const ETHICS_COURSE = {
  title: "Professional Ethics for CPAs",
  category: "Development",
  duration: 1,
  colors: ["1e3a8a", "0d9488"],
  description:
    "Apply the AICPA Code of Professional Conduct to everyday decisions: integrity and objectivity, independence, due care and confidentiality. One NASBA CPE credit in Behavioral and Regulatory Ethics, with review questions after each module and a final exam.",
  credit: [
    {
      type: "cpe",
      amount: 1,
      designationStatement:
        "Recommended for 1 CPE credit: 0.5 in Behavioral Ethics and 0.5 in Regulatory Ethics.",
      claimStep: null,
    },
  ],
  exam: {
    enabled: true,
    questionCount: 5,
    passMark: 70,
    maxAttempts: 3,
    timeLimitMinutes: 30,
    revealAnswers: "after_pass",
    reviewRequired: true,
  },
  /** The credit claim as NASBA QAS self-study asks for it (no partial credit, 5-year records). */
  activity: {
    objectives: [
      "Identify threats to integrity and objectivity and the safeguards that reduce them",
      "Apply the independence rules to loans, gifts and family relationships",
      "Decide when client information may be disclosed without consent",
    ],
    faculty: [
      {
        name: "Margaret Chen, CPA, CGMA",
        role: "Author and instructor",
        disclosure: "Nothing to disclose.",
      },
      {
        name: "Samuel Ortiz, CPA",
        role: "Technical reviewer",
        disclosure: "Paid speaker for Ledgerly Software (accounting software).",
      },
    ],
    disclosureStatement:
      "Samuel Ortiz, Ledgerly Software, paid speaker. The activity contains no content about Ledgerly products. All relevant financial relationships have been mitigated.",
    releaseDate: "2026-01-15",
    reviewDate: "2026-07-15",
    expirationDate: "2027-01-14",
    enrollmentValidDays: 365,
    acknowledgementRequired: true,
    evaluationRequired: true,
    attestationRequired: true,
    attestationText:
      "I attest that I personally completed this activity, that I did so in the time it records, and that the credit I claim reflects my participation.",
    retentionYears: 5,
  },
  creditSettings: {
    sponsorName: "Credo Learning",
    sponsorAddress: "200 Market Street, Suite 400, Philadelphia, PA 19106",
    deliveryMethod: "QAS Self-Study",
    fieldsOfStudy: [
      { field: "Behavioral Ethics", credits: 0.5 },
      { field: "Regulatory Ethics", credits: 0.5 },
    ],
    officialName: "Margaret Chen, CPA",
    officialTitle: "Director of Continuing Education",
  },
  modules: [
    {
      title: "Integrity and objectivity",
      duration: 15,
      description:
        "The principles behind the Code, the Integrity and Objectivity Rule, and the conceptual framework's threats and safeguards.",
      review: [
        {
          kind: "single",
          text: 'Your controller asks you to record a sale this quarter although the goods ship next month, "so we hit the target". Under the Integrity and Objectivity Rule, what should you do?',
          options: [
            {
              text: "Record the sale as asked: the controller is responsible for the financial statements.",
              correct: false,
              feedback:
                "Following the instruction would subordinate your judgment to the controller's, which is exactly what the rule forbids.",
            },
            {
              text: "Explain why the entry is not appropriate and, if the controller insists, take the matter to higher management or those charged with governance, documenting what you did.",
              correct: true,
              feedback:
                "Right: raise the concern, escalate it if it is not resolved, and document the facts and the discussions.",
            },
            {
              text: "Record the sale but keep a private note that you disagreed.",
              correct: false,
              feedback:
                "A private note does not undo the entry: you would still be knowingly misrepresenting the facts.",
            },
          ],
          explanation:
            "A member shall maintain objectivity and integrity, shall be free of conflicts of interest, and shall not knowingly misrepresent facts or subordinate his or her judgment to others.",
        },
        {
          kind: "true_false",
          text: "As the Code describes it, objectivity means being impartial, intellectually honest and free of conflicts of interest.",
          options: [
            {
              text: "True",
              correct: true,
              feedback:
                "Right: objectivity is a state of mind, and these three qualities are what it asks for.",
            },
            {
              text: "False",
              correct: false,
              feedback:
                "The Code describes objectivity in exactly these words: impartial, intellectually honest and free of conflicts of interest.",
            },
          ],
          explanation: null,
        },
      ],
    },
    {
      title: "Independence",
      duration: 20,
      description:
        "Independence of mind and in appearance, financial interests, loans, gifts and nonattest services for attest clients.",
      review: [
        {
          kind: "single",
          text: "The Code describes independence as having two parts. Which are they?",
          options: [
            {
              text: "Independence of mind and independence in appearance",
              correct: true,
              feedback:
                "Right: an objective state of mind, and avoiding circumstances that would lead a reasonable, informed third party to doubt it.",
            },
            {
              text: "Independence in fact and independence in fees",
              correct: false,
              feedback: "Fees can threaten independence, but they are not one of its two parts.",
            },
            {
              text: "Personal independence and firm independence",
              correct: false,
              feedback:
                "Both individuals and firms must be independent, but the two parts are of mind and in appearance.",
            },
          ],
          explanation:
            "Independence of mind lets a member act with integrity and objectivity; independence in appearance means avoiding facts and circumstances that would lead a reasonable and informed third party to conclude that integrity, objectivity or professional skepticism had been compromised.",
        },
        {
          kind: "multiple",
          text: "Which of these impair the firm's independence for an audit client? Choose all that apply.",
          options: [
            {
              text: "A staff member on the engagement owns 10 shares of the client's stock.",
              correct: true,
              feedback:
                "Right: a covered member's direct financial interest impairs independence however small it is.",
            },
            {
              text: "The firm signs the client's payroll checks.",
              correct: true,
              feedback:
                "Right: signing checks is authorizing transactions, a management responsibility.",
            },
            {
              text: "The firm explains to management how a new lease standard applies to its contracts.",
              correct: false,
              feedback:
                "Advice and explanation leave the decisions with management, so independence is not impaired.",
            },
          ],
          explanation:
            "A direct financial interest held by a covered member impairs independence regardless of materiality, and so does assuming a management responsibility for an attest client.",
        },
      ],
    },
    {
      title: "Due care and confidentiality",
      duration: 15,
      description:
        "The General Standards Rule, confidential client information and its exceptions, contingent fees and client records.",
      review: [
        {
          kind: "single",
          text: "A lender phones to ask about a client's financial position. The client has not given its consent. What should you do?",
          options: [
            {
              text: "Share only what the lender could verify elsewhere.",
              correct: false,
              feedback:
                "Confidential client information stays confidential even when parts of it could be found elsewhere; you need the client's specific consent.",
            },
            {
              text: "Decline to discuss the client's affairs until the client gives its specific consent.",
              correct: true,
              feedback:
                "Right: without the client's specific consent, confidential information is not disclosed to a third party such as a lender.",
            },
            {
              text: "Answer, since the lender already does business with the client.",
              correct: false,
              feedback:
                "A lender's relationship with the client is not one of the rule's exceptions.",
            },
          ],
          explanation:
            "The Confidential Client Information Rule forbids disclosure without the client's specific consent, apart from listed exceptions such as an enforceable subpoena, a peer review or an inquiry by a recognized disciplinary body.",
        },
        {
          kind: "single",
          text: "What does the principle of due care ask of a member?",
          options: [
            {
              text: "To discharge professional responsibilities with competence and diligence.",
              correct: true,
              feedback:
                "Right: due care is competence and diligence, applied to every service a member performs.",
            },
            {
              text: "To guarantee that the financial statements are free of all misstatements.",
              correct: false,
              feedback:
                "No engagement gives a guarantee; due care asks for competence and diligence, not certainty.",
            },
            {
              text: "To accept only engagements that carry no risk of error.",
              correct: false,
              feedback:
                "Due care does not mean avoiding risk; it means planning, supervising and performing the work competently and diligently.",
            },
          ],
          explanation:
            "Due care requires a member to discharge professional responsibilities with competence and diligence, to the best of the member's ability and in the interest of those served.",
        },
      ],
    },
  ],
  final: [
    {
      kind: "single",
      text: "Under the Integrity and Objectivity Rule, which of the following is a member forbidden to do?",
      options: [
        {
          text: "Knowingly misrepresent facts, or subordinate professional judgment to others",
          correct: true,
          feedback: "Right: that is the rule's prohibition, in any professional service.",
        },
        {
          text: "Disagree with a supervisor about an accounting treatment",
          correct: false,
          feedback:
            "Disagreeing is expected; the rule forbids giving in on judgment, not raising a concern.",
        },
        {
          text: "Provide both tax and advisory services to the same client",
          correct: false,
          feedback:
            "Several services for one client are not a breach in themselves; the question is whether a conflict of interest arises.",
        },
        {
          text: "Charge a fee based on the hours worked",
          correct: false,
          feedback: "Hourly fees raise no question of integrity or objectivity.",
        },
      ],
      explanation:
        "In the performance of any professional service, a member shall maintain objectivity and integrity, shall be free of conflicts of interest, and shall not knowingly misrepresent facts or subordinate his or her judgment to others.",
    },
    {
      kind: "single",
      text: "Under the conceptual framework, what does a member do after identifying a threat to compliance with the rules?",
      options: [
        {
          text: "Evaluate the threat's significance and, unless it is already at an acceptable level, apply safeguards that eliminate it or reduce it to one",
          correct: true,
          feedback: "Right: identify, evaluate, then safeguard.",
        },
        {
          text: "Decline or end the engagement at once",
          correct: false,
          feedback:
            "Withdrawing is needed only when no safeguard can bring the threat to an acceptable level.",
        },
        {
          text: "Tell the client about the threat and carry on",
          correct: false,
          feedback:
            "Telling the client is not by itself a safeguard; the threat must be evaluated and addressed.",
        },
        {
          text: "Document the threat; nothing more is required",
          correct: false,
          feedback: "Documenting a threat does not reduce it.",
        },
      ],
      explanation:
        "The framework has three steps: identify threats, evaluate their significance, and apply safeguards; when no safeguard reduces a threat to an acceptable level, the member declines or ends the service.",
    },
    {
      kind: "single",
      text: "A firm actively promotes an attest client's shares to investors. Which threat to independence does this create?",
      options: [
        {
          text: "Advocacy",
          correct: true,
          feedback:
            "Right: promoting the client's interests or position compromises, or appears to compromise, objectivity.",
        },
        {
          text: "Self-review",
          correct: false,
          feedback:
            "Self-review arises when the firm evaluates its own earlier work, such as statements it prepared.",
        },
        {
          text: "Familiarity",
          correct: false,
          feedback: "Familiarity arises from a long or close relationship, not from promotion.",
        },
        {
          text: "Adverse interest",
          correct: false,
          feedback:
            "Adverse interest arises when the firm's interests are opposed to the client's, as in litigation.",
        },
      ],
      explanation:
        "The advocacy threat is the threat that a member will promote a client's interests or position to the point that objectivity or independence is compromised.",
    },
    {
      kind: "single",
      text: "A firm designs an attest client's accounting system and then audits the financial statements the system produces. Which threat is most directly present?",
      options: [
        {
          text: "Self-review",
          correct: true,
          feedback: "Right: the firm would be evaluating the results of its own work.",
        },
        {
          text: "Undue influence",
          correct: false,
          feedback:
            "Undue influence comes from pressure by the client or others, not from the firm's earlier work.",
        },
        {
          text: "Advocacy",
          correct: false,
          feedback: "The firm is not promoting the client's position here.",
        },
        {
          text: "Adverse interest",
          correct: false,
          feedback: "Nothing here sets the firm's interests against the client's.",
        },
      ],
      explanation:
        "The self-review threat is the threat that a member will not appropriately evaluate the results of a previous judgment or service by the member or the firm, and will rely on it in the current service.",
    },
    {
      kind: "single",
      text: "A covered member holds a direct financial interest in an attest client that is immaterial to the member's net worth. What is the effect on independence?",
      options: [
        {
          text: "Independence is impaired, whatever the amount",
          correct: true,
          feedback:
            "Right: a direct financial interest impairs independence regardless of materiality.",
        },
        {
          text: "Independence is impaired only if the interest is material to the member",
          correct: false,
          feedback:
            "Materiality is the test for indirect financial interests, not for direct ones.",
        },
        {
          text: "Independence is not impaired if the interest is disclosed in the report",
          correct: false,
          feedback: "Disclosure does not cure a direct financial interest.",
        },
        {
          text: "Independence is impaired only if the interest gives the member significant influence over the client",
          correct: false,
          feedback:
            "A direct financial interest impairs independence without any influence over the client.",
        },
      ],
      explanation:
        "A direct financial interest in an attest client held by a covered member impairs independence regardless of its materiality; an indirect financial interest impairs it when material.",
    },
    {
      kind: "multiple",
      text: "Which of these, performed for an attest client, are management responsibilities that impair independence? Choose all that apply.",
      options: [
        {
          text: "Authorizing or approving the client's transactions",
          correct: true,
          feedback: "Right: authorizing transactions is a decision that belongs to management.",
        },
        {
          text: "Having custody of the client's assets",
          correct: true,
          feedback: "Right: holding the client's assets is a management responsibility.",
        },
        {
          text: "Recommending improvements to internal control for management to evaluate",
          correct: false,
          feedback:
            "Recommendations leave the decision with management, which is allowed when the general requirements for nonattest services are met.",
        },
        {
          text: "Preparing a tax return that management reviews, approves and signs",
          correct: false,
          feedback:
            "Tax preparation is a permitted nonattest service when management takes responsibility for the return.",
        },
      ],
      explanation:
        "Assuming a management responsibility for an attest client, such as directing the entity, making its decisions, authorizing its transactions or holding its assets, impairs independence whatever safeguards are applied.",
    },
    {
      kind: "single",
      text: "The spouse of a covered member owns shares of an attest client in her own brokerage account. How does the Code treat the shares?",
      options: [
        {
          text: "As the covered member's own direct financial interest, so independence is impaired",
          correct: true,
          feedback:
            "Right: an immediate family member's financial interests are attributed to the covered member, with narrow exceptions such as some employee benefit plans.",
        },
        {
          text: "As an indirect interest, acceptable while immaterial",
          correct: false,
          feedback:
            "The spouse's shares are not an indirect interest: they are attributed to the covered member directly.",
        },
        {
          text: "As irrelevant, since the spouse is not a CPA",
          correct: false,
          feedback:
            "Whether the spouse is a CPA does not matter; immediate family members' interests count.",
        },
      ],
      explanation:
        "A covered member's immediate family (spouse, spousal equivalent and dependents) is held to the same independence rules as the covered member.",
    },
    {
      kind: "multiple",
      text: "In which situations may a member disclose confidential client information without the client's consent? Choose all that apply.",
      options: [
        {
          text: "To comply with a validly issued and enforceable subpoena",
          correct: true,
          feedback: "Right: an enforceable subpoena or summons is an exception.",
        },
        {
          text: "In a peer review of the member's practice",
          correct: true,
          feedback: "Right: a review of the member's professional practice is an exception.",
        },
        {
          text: "In answer to an inquiry from a state board of accountancy's disciplinary body",
          correct: true,
          feedback:
            "Right: responding to a recognized investigative or disciplinary body is an exception.",
        },
        {
          text: "To help a prospective buyer of the client evaluate the purchase",
          correct: false,
          feedback:
            "A buyer's interest is not an exception; it needs the client's specific consent.",
        },
      ],
      explanation:
        "The Confidential Client Information Rule does not stop a member from complying with an enforceable subpoena or summons or with laws and regulations, from a peer review, or from responding to a recognized investigative or disciplinary body.",
    },
    {
      kind: "single",
      text: "For which of these services may a member accept a contingent fee?",
      options: [
        {
          text: "Representing a client in the examination of a tax return by a revenue agent",
          correct: true,
          feedback:
            "Right: fees in tax matters determined by the findings of a governmental agency are not regarded as contingent.",
        },
        {
          text: "Preparing a client's original income tax return",
          correct: false,
          feedback:
            "Contingent fees for preparing an original or amended tax return are prohibited.",
        },
        {
          text: "Auditing a client's financial statements",
          correct: false,
          feedback:
            "No contingent fee may be charged to a client for whom the member performs an audit.",
        },
        {
          text: "Examining a client's prospective financial information",
          correct: false,
          feedback:
            "An examination of prospective financial information is an attest service: contingent fees are prohibited.",
        },
      ],
      explanation:
        "Contingent fees are prohibited for attest clients and for preparing original or amended tax returns or claims for refund; fees fixed by courts or public authorities, or in tax matters determined by judicial proceedings or governmental agencies' findings, are not contingent fees.",
    },
    {
      kind: "single",
      text: "A member accepts an engagement in an industry that is new to them. What does the General Standards Rule require?",
      options: [
        {
          text: "Gain the competence needed, through research, consultation or bringing in someone competent, before completing the work",
          correct: true,
          feedback: "Right: competence is required for the work, and it can be acquired.",
        },
        {
          text: "Decline the engagement: only work within existing experience may be accepted",
          correct: false,
          feedback:
            "The rule allows competence to be gained through additional research or consultation.",
        },
        {
          text: "Tell the client about the lack of experience; no further competence is then required",
          correct: false,
          feedback: "Telling the client does not replace the competence the work needs.",
        },
        {
          text: "Charge a reduced fee to reflect the learning involved",
          correct: false,
          feedback: "The fee has nothing to do with the competence the rule requires.",
        },
      ],
      explanation:
        "The General Standards Rule asks for professional competence, due professional care, adequate planning and supervision, and sufficient relevant data; competence may be gained through additional research or consultation.",
    },
    {
      kind: "single",
      text: "A former client asks for the records it gave the firm, but has not paid its last invoice. What must the member do?",
      options: [
        {
          text: "Return the client-provided records; unpaid fees are no reason to keep them",
          correct: true,
          feedback:
            "Right: client-provided records are returned on request, whether or not fees are paid.",
        },
        {
          text: "Keep every record until the invoice is paid",
          correct: false,
          feedback: "Holding client-provided records back for unpaid fees is an act discreditable.",
        },
        {
          text: "Return the records only once the client signs a release of claims",
          correct: false,
          feedback: "No condition of this kind may be put on returning the client's own records.",
        },
        {
          text: "Destroy the records, since the relationship has ended",
          correct: false,
          feedback: "The records belong to the client and must be returned on request.",
        },
      ],
      explanation:
        "Under the Acts Discreditable Rule, client-provided records are returned on request even when fees are unpaid; the member's own work products may be withheld until the fees for that work are paid.",
    },
    {
      kind: "single",
      text: "An attest client offers a member of the engagement team a gift. When does accepting it impair independence?",
      options: [
        {
          text: "When its value is more than clearly insignificant to the recipient",
          correct: true,
          feedback: "Right: that is the Code's test for gifts from an attest client.",
        },
        {
          text: "Only when it exceeds the firm's own policy limit",
          correct: false,
          feedback:
            "A firm's policy may be stricter, but the Code's test is whether the gift is clearly insignificant to the recipient.",
        },
        {
          text: "Never, if it is disclosed to the audit committee",
          correct: false,
          feedback: "Disclosure does not make a significant gift acceptable.",
        },
        {
          text: "Only when it is cash",
          correct: false,
          feedback: "Any gift counts, whatever its form.",
        },
      ],
      explanation:
        "Accepting a gift from an attest client impairs independence unless its value is clearly insignificant to the recipient; entertainment is judged instead by whether it is reasonable in the circumstances.",
    },
    {
      kind: "single",
      text: "The CFO of an audit client threatens to replace the firm unless it accepts an aggressive revenue recognition policy. Which threat is this?",
      options: [
        {
          text: "Undue influence",
          correct: true,
          feedback:
            "Right: a threat to replace the firm over a disagreement is the Code's own example.",
        },
        {
          text: "Familiarity",
          correct: false,
          feedback: "Familiarity arises from a long or close relationship, not from pressure.",
        },
        {
          text: "Self-review",
          correct: false,
          feedback: "The firm is not evaluating its own earlier work here.",
        },
        {
          text: "Advocacy",
          correct: false,
          feedback: "The firm is not promoting the client's position here.",
        },
      ],
      explanation:
        "Undue influence is the threat that a member will subordinate judgment to someone associated with the client because of that person's reputation, expertise, dominant personality, or attempts to coerce or exercise excessive influence over the member.",
    },
    {
      kind: "single",
      text: "Assuming normal lending terms, which of these loans from a bank that is an attest client does NOT impair a covered member's independence?",
      options: [
        {
          text: "An automobile loan collateralized by the car",
          correct: true,
          feedback:
            "Right: automobile loans and leases collateralized by the vehicle are permitted loans.",
        },
        {
          text: "An unsecured personal loan obtained after the bank became an attest client",
          correct: false,
          feedback:
            "Unsecured loans other than small credit card and overdraft balances impair independence.",
        },
        {
          text: "A home mortgage obtained after the bank became an attest client",
          correct: false,
          feedback: "A mortgage obtained while the bank is an attest client impairs independence.",
        },
        {
          text: "A credit card balance of $25,000 carried past its due date",
          correct: false,
          feedback:
            "Credit card balances must be brought down to $10,000 or less by the payment due date.",
        },
      ],
      explanation:
        "Permitted loans, under normal lending procedures, terms and requirements, are automobile loans and leases collateralized by the automobile, loans fully collateralized by an insurance policy's cash surrender value or by cash deposits at the same institution, and credit card and overdraft balances reduced to $10,000 or less by the payment due date.",
    },
  ],
} satisfies DemoCourse;

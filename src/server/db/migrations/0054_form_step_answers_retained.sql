-- A learner's answers to a form step (the commitment to change) are a credit record like the
-- acknowledgement, the evaluation and the attestation: none changes once written, but for the
-- clearing of its links when the learner, course or enrollment is deleted, and none is deleted
-- before the course's retention period has run out (credit_records_retained, migration 0014).
CREATE TRIGGER form_step_answers_retained BEFORE UPDATE OR DELETE ON form_step_answers
  FOR EACH ROW EXECUTE FUNCTION credit_records_retained();

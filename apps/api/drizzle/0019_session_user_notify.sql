-- Hand-written (ADR 039): every API process caches the users of recently authenticated sessions and
-- drops an entry when it hears of a change here, from whichever process or SQL client made it. The
-- notification is sent at commit, with the user's id.
CREATE FUNCTION "users_notify_session_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('altwise_session_users', OLD.id::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "users_session_changed" AFTER UPDATE ON "users"
  FOR EACH ROW WHEN (OLD.session_version IS DISTINCT FROM NEW.session_version OR OLD.email IS DISTINCT FROM NEW.email)
  EXECUTE FUNCTION "users_notify_session_change"();--> statement-breakpoint
CREATE TRIGGER "users_session_deleted" AFTER DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "users_notify_session_change"();

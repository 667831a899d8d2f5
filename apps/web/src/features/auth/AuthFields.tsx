import { PasswordInput, TextInput } from '@mantine/core';
import { useTypedBeforeHydration } from '../../components/hydration.ts';

// Each field keeps what was typed into it before the app took a prerendered page over
// (useTypedBeforeHydration): /login is prerendered, and so may the other sign-in pages be.

/** The account email field of the login, reset-request and register forms. */
export function EmailField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  /** The server's objection to the email, shown under the field. */
  error?: string | undefined;
}) {
  const ref = useTypedBeforeHydration(value, onChange);
  return (
    <TextInput
      ref={ref}
      label="Email"
      error={error}
      aria-invalid={error ? true : undefined}
      type="email"
      autoComplete="username"
      required
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}

/** The login form's Password. */
export function CurrentPasswordField({
  value,
  onChange,
}: {
  value: string;
  onChange: (value: string) => void;
}) {
  const ref = useTypedBeforeHydration(value, onChange);
  return (
    <PasswordInput
      ref={ref}
      label="Password"
      autoComplete="current-password"
      required
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}

/** Password and Confirm Password, as register and password reset ask for them. */
export function NewPasswordFields({
  password,
  passwordConfirm,
  onPasswordChange,
  onPasswordConfirmChange,
  errors = {},
}: {
  password: string;
  passwordConfirm: string;
  onPasswordChange: (value: string) => void;
  onPasswordConfirmChange: (value: string) => void;
  /** The server's objections, shown under their fields. */
  errors?: { password?: string | undefined; passwordConfirm?: string | undefined };
}) {
  const passwordRef = useTypedBeforeHydration(password, onPasswordChange);
  const passwordConfirmRef = useTypedBeforeHydration(passwordConfirm, onPasswordConfirmChange);
  return (
    <>
      <PasswordInput
        ref={passwordRef}
        label="Password"
        description="At least 6 characters"
        autoComplete="new-password"
        required
        error={errors.password}
        aria-invalid={errors.password ? true : undefined}
        value={password}
        onChange={(e) => onPasswordChange(e.currentTarget.value)}
      />
      <PasswordInput
        ref={passwordConfirmRef}
        label="Confirm Password"
        autoComplete="new-password"
        required
        error={errors.passwordConfirm}
        aria-invalid={errors.passwordConfirm ? true : undefined}
        value={passwordConfirm}
        onChange={(e) => onPasswordConfirmChange(e.currentTarget.value)}
      />
    </>
  );
}

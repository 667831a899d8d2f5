import { PasswordInput, TextInput } from '@mantine/core';

/** The account email field of the login, reset-request and register forms. */
export function EmailField({
  value,
  onChange,
}: {
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <TextInput
      label="Email"
      type="email"
      autoComplete="username"
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
}: {
  password: string;
  passwordConfirm: string;
  onPasswordChange: (value: string) => void;
  onPasswordConfirmChange: (value: string) => void;
}) {
  return (
    <>
      <PasswordInput
        label="Password"
        description="At least 6 characters"
        autoComplete="new-password"
        required
        value={password}
        onChange={(e) => onPasswordChange(e.currentTarget.value)}
      />
      <PasswordInput
        label="Confirm Password"
        autoComplete="new-password"
        required
        value={passwordConfirm}
        onChange={(e) => onPasswordConfirmChange(e.currentTarget.value)}
      />
    </>
  );
}

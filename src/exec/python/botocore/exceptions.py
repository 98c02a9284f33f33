"""The botocore exceptions agent code commonly catches."""


class BotoCoreError(Exception):
    pass


class NoCredentialsError(BotoCoreError):
    pass


class ParamValidationError(BotoCoreError, ValueError):
    pass


class ClientError(Exception):
    def __init__(self, error_response, operation_name):
        self.response = error_response
        self.operation_name = operation_name
        err = error_response.get("Error", {})
        super().__init__(
            "An error occurred (%s) when calling the %s operation: %s"
            % (err.get("Code", "Unknown"), operation_name, err.get("Message", "")))

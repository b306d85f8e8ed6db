mock_provider "aws" {}

run "ssm_access_and_no_inline_policy_by_default" {
  command = plan
  variables {
    name_prefix = "geobroker-test-kafka-"
  }
  assert {
    condition     = aws_iam_role_policy_attachment.ssm.policy_arn == "arn:aws:iam::aws:policy/AmazonSSMManagedInstanceCore"
    error_message = "instances must be reachable through SSM Session Manager"
  }
  assert {
    condition     = length(aws_iam_role_policy.this) == 0
    error_message = "no inline policy unless one is given"
  }
  assert {
    condition     = aws_iam_instance_profile.this.name_prefix == "geobroker-test-kafka-"
    error_message = "the instance profile carries the given name prefix"
  }
}

run "inline_policy_when_given" {
  command = plan
  variables {
    name_prefix = "geobroker-test-cassandra-"
    has_policy  = true
    policy_json = "{\"Version\":\"2012-10-17\",\"Statement\":[]}"
  }
  assert {
    condition     = length(aws_iam_role_policy.this) == 1
    error_message = "the given inline policy is attached"
  }
}

output "role_name" {
  description = "Name of the instance's IAM role."
  value       = aws_iam_role.this.name
}

output "instance_profile_name" {
  description = "Name of the instance profile to give the EC2 instances."
  value       = aws_iam_instance_profile.this.name
}

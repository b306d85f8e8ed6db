output "broker_security_group_id" {
  description = "The broker's security group (allowed on CQL and Kafka)."
  value       = aws_security_group.broker.id
}

output "ticker_security_group_id" {
  description = "The ticker-service's security group (allowed on Kafka)."
  value       = aws_security_group.ticker.id
}

output "broker_url" {
  description = "The broker's REST base URL inside the deployment."
  value       = "http://${var.broker.ip}:8080"
}

output "broker_instance_id" {
  description = "The broker's instance (target of the schema job, see README)."
  value       = aws_instance.broker.id
}

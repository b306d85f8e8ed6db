# The identity of one kind of geobroker EC2 instance: an IAM role that only EC2 may assume, SSM
# Session Manager access (operators reach instances through SSM; no SSH port is open anywhere),
# an optional inline policy with what the instance itself needs, and the instance profile.

data "aws_iam_policy_document" "assume" {
  statement {
    actions = ["sts:AssumeRole"]
    principals {
      type        = "Service"
      identifiers = ["ec2.amazonaws.com"]
    }
  }
}

resource "aws_iam_role" "this" {
  name_prefix        = var.name_prefix
  assume_role_policy = data.aws_iam_policy_document.assume.json
  tags               = var.tags
}

resource "aws_iam_role_policy_attachment" "ssm" {
  role       = aws_iam_role.this.name
  policy_arn = "arn:aws:iam::aws:policy/AmazonSSMManagedInstanceCore"
}

resource "aws_iam_role_policy" "this" {
  count  = var.has_policy ? 1 : 0
  role   = aws_iam_role.this.id
  policy = var.policy_json
}

resource "aws_iam_instance_profile" "this" {
  name_prefix = var.name_prefix
  role        = aws_iam_role.this.name
  tags        = var.tags
}
